import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";
import { showToast } from "#app/utils/toast.ts";
import type { FormReply } from "./form-reply.ts";
import { validationToast } from "./validation.ts";

/**
 * One way to set up a form: the same zod schema validates as the user types (after the first
 * blur) and on the server; a failed submit shows the first message in a 'Validation error' toast
 * while every field keeps its own message. The server's answer (`useFormReply(id)`) brings back
 * its errors and the typed input; its toast is the page's (the Toaster shows it).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Conform types form input loosely
export function useValidatedForm<Schema extends z.ZodType<Record<string, unknown>, Record<string, any>>>({
  id,
  schema,
  actionData,
  defaultValue,
}: {
  id: string;
  schema: Schema;
  actionData: FormReply | undefined;
  defaultValue?: Partial<z.input<Schema>>;
}) {
  const [form, fields] = useForm<z.input<Schema>, z.output<Schema>>({
    id,
    lastResult: actionData?.result,
    defaultValue: defaultValue as never,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData, submitter }) => {
      const submission = parseWithZod(formData, { schema });
      // Conform validates a blurred field by submitting with its own "__intent__" button; only a
      // real submit attempt, which carries no such intent, says in a toast why it did not go.
      const isSubmitAttempt = submitter !== null && !formData.has("__intent__");
      if (isSubmitAttempt && submission.status !== "success") showToast(validationToast(submission.error));
      return submission;
    },
  });

  return { form, fields, formProps: getFormProps(form) };
}
