import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useEffect, type FormEvent } from "react";
import type { z } from "zod";
import { showToast } from "#app/components/toaster.tsx";
import type { Toast } from "./cookies.server.ts";
import { validationToast } from "./validation.ts";

/** What a form action answers on failure: Conform's result, and the toast to show. */
export type FormActionData = { result: SubmissionResult<string[]>; toast?: Toast } | undefined;

/**
 * One way to set up a form: the same zod schema validates as the user types (after the first
 * blur) and on the server; a failed submit shows the first message in a 'Validation error' toast
 * while every field keeps its own message; a toast sent by the action shows once.
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
  actionData: FormActionData;
  defaultValue?: Partial<z.input<Schema>>;
}) {
  const [form, fields] = useForm<z.input<Schema>, z.output<Schema>>({
    id,
    lastResult: actionData?.result,
    defaultValue: defaultValue as never,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });

  useEffect(() => {
    if (actionData?.toast) showToast(actionData.toast);
  }, [actionData]);

  const formProps = getFormProps(form);
  return {
    form,
    fields,
    formProps: {
      ...formProps,
      onSubmit(event: FormEvent<HTMLFormElement>) {
        const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
        const formData = new FormData(event.currentTarget, submitter);
        const submission = parseWithZod(formData, { schema });
        if (submission.status !== "success") showToast(validationToast(submission.error));
        formProps.onSubmit(event);
      },
    },
  };
}
