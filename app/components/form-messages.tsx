// A form's messages, apart from forms.tsx (and the Conform helpers it imports) for pages that
// show a server's message without a Conform form.

/**
 * A field's message. Its line is always there, so a message appearing on blur never moves the
 * submit button away from the pointer that is about to click it.
 */
export function FieldError({ id, errors }: { id?: string; errors?: string[] }) {
  return (
    <p id={id} className="-mt-1 min-h-5 text-sm font-medium text-destructive">
      {errors?.[0]}
    </p>
  );
}

/** Errors of the whole form (wrong password, rate limit), announced when they appear. */
export function FormError({ errors }: { errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <p
      role="alert"
      className="rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm font-medium text-destructive"
    >
      {errors[0]}
    </p>
  );
}
