import { getFormProps, parse, useForm, type Submission } from "@conform-to/react";
import { useRef } from "react";
import type { z } from "zod";
import { showToast } from "#app/utils/toast.ts";
import type { FormReply } from "./form-reply.ts";
import type { FormValidator } from "./form-validators.ts";
import { validationToast } from "./validation-toast.ts";

type Validate = (formData: FormData) => Submission<Record<string, unknown>, string[]>;

/** Each form's loaded schema, bound to Conform's zod parser; shared by every form using the same validator. */
const loaded = new WeakMap<FormValidator<z.ZodType>, Validate>();
const loading = new WeakMap<FormValidator<z.ZodType>, Promise<Validate>>();

function loadValidation(validator: FormValidator<z.ZodType>) {
  let promise = loading.get(validator);
  if (!promise) {
    promise = Promise.all([validator.schema(), import("@conform-to/zod/v4")]).then(([schema, { parseWithZod }]) => {
      const validate: Validate = (formData) => parseWithZod(formData, { schema }) as ReturnType<Validate>;
      loaded.set(validator, validate);
      return validate;
    });
    // A failed fetch (offline) leaves the server to validate; the next interaction tries again.
    promise.catch(() => loading.delete(validator));
    loading.set(validator, promise);
  }
  return promise;
}

/**
 * One way to set up a form: the same zod schema validates as the user types (after the first
 * blur) and on the server; a failed submit shows the first message in a 'Validation error' toast
 * while every field keeps its own message. The server's answer (`useFormReply(id)`) brings back
 * its errors and the typed input; its toast is the page's (the Toaster shows it).
 *
 * The schema loads on the form's first focus or press (docs/decisions/039). Until it is there, a
 * submit goes to the server, which answers with the same messages (as without JavaScript), and a
 * field left before then is checked as soon as the schema arrives.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Conform types form input loosely
export function useValidatedForm<Schema extends z.ZodType<Record<string, unknown>, Record<string, any>>>({
  id,
  validator,
  actionData,
  defaultValue,
}: {
  id: string;
  validator: FormValidator<Schema>;
  actionData: FormReply | undefined;
  defaultValue?: Partial<z.input<Schema>>;
}) {
  // Fields left while the schema was still loading: validated once it arrives.
  const blurredEarly = useRef(new Set<string>());
  const [form, fields] = useForm<z.input<Schema>, z.output<Schema>>({
    id,
    lastResult: actionData?.result,
    defaultValue: defaultValue as never,
    constraint: validator.constraint,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData, submitter }) => {
      const validate = loaded.get(validator);
      if (!validate) return notYetValidated(formData, blurredEarly.current);
      const submission = validate(formData);
      // Conform validates a blurred field by submitting with its own "__intent__" button; only a
      // real submit attempt, which carries no such intent, says in a toast why it did not go.
      const isSubmitAttempt = submitter !== null && !formData.has("__intent__");
      if (isSubmitAttempt && submission.status !== "success") showToast(validationToast(submission.error));
      return submission as never;
    },
  });

  const loadSchema = () => {
    if (loaded.has(validator)) return;
    loadValidation(validator).then(
      () => {
        const names = [...blurredEarly.current];
        blurredEarly.current.clear();
        // The form may be gone by then: its dialog closed after a submit the server took.
        if (!document.forms.namedItem(form.id)) return;
        for (const name of names) form.validate({ name });
      },
      () => {}, // offline: the server validates, and the next focus or press tries again
    );
  };
  return { form, fields, formProps: { ...getFormProps(form), onFocus: loadSchema, onPointerDown: loadSchema } };
}

/**
 * Conform's answer while the schema loads: a submit goes through (the server validates), a
 * blurred field keeps whatever message it shows and is noted to be checked later.
 */
function notYetValidated(formData: FormData, blurredEarly: Set<string>) {
  return parse(formData, {
    resolve: (payload, intent) => {
      if (!intent) return { value: payload };
      if (intent.type === "validate" && intent.payload.name) blurredEarly.add(intent.payload.name);
      // null keeps a field's current error (the server's, if any) as it is.
      return { error: Object.fromEntries([...formData.keys()].map((name) => [name, null])) };
    },
  }) as never;
}
