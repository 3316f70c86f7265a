// The toast a failed validation shows, in the browser (use-validated-form.ts) and in the server's
// answer (form-reply.server.ts) alike. No zod here: the browser loads this with every form.

/** The first message of a failed validation: what the 'Validation error' toast shows. */
export function firstError(error: Record<string, string[] | null> | null | undefined) {
  if (!error) return null;
  for (const messages of Object.values(error)) if (messages?.[0]) return messages[0];
  return null;
}

/**
 * The toast for a failed validation: most messages go under 'Validation error'; a few have
 * their own title and text in the spec.
 */
const SPECIAL_TOASTS: Record<string, { title: string; description: string }> = {
  "Passwords don't match": {
    title: "Passwords don't match",
    description: "Please make sure your new passwords match.",
  },
  "Please enter an organisation name": { title: "Name required", description: "Please enter an organisation name" },
};

export function validationToast(error: Record<string, string[] | null> | null | undefined) {
  const message = firstError(error) ?? "Please check the form";
  return {
    ...(SPECIAL_TOASTS[message] ?? { title: "Validation error", description: message }),
    variant: "destructive" as const,
  };
}
