import { Form } from "@remix-run/react";
import { FormError } from "#app/components/form-messages.tsx";
import { TextareaField, TextField } from "#app/components/forms.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { FormDialogCancel } from "#app/components/form-dialog.tsx";
import { DialogFooter } from "#app/components/ui/dialog-layout.tsx";
import { useValidatedForm } from "#app/utils/use-validated-form.ts";
import type { FormReply } from "#app/utils/form-reply.ts";
import { createOrganizationValidator } from "#app/utils/form-validators.ts";
import { useSubmissionKey } from "#app/utils/use-submission-key.ts";

/** The create-organisation form (its dialog, which loads it on first opening: create-organization.tsx). */
export function CreateOrganizationForm({ actionData }: { actionData: FormReply | undefined }) {
  const { form, fields, formProps } = useValidatedForm({
    id: "create-organization",
    validator: createOrganizationValidator,
    actionData,
  });
  // A resent form (a lost answer, a double click) makes one organisation (decision 077).
  const submissionKey = useSubmissionKey();
  return (
    <Form method="post" action="/dashboard?create=1" {...formProps} className="grid gap-4">
      <input type="hidden" name="submissionKey" value={submissionKey} />
      <FormError errors={form.errors} />
      <TextField field={fields.name} label="Organisation Name" autoFocus />
      <TextareaField field={fields.description} label="Description" rows={3} />
      <DialogFooter>
        <FormDialogCancel />
        <SubmitButton intent="create-organization" pendingText="Creating...">
          Create
        </SubmitButton>
      </DialogFooter>
    </Form>
  );
}
