import { Form } from "@remix-run/react";
import { Plus } from "lucide-react";
import { FormError, SubmitButton, TextareaField, TextField } from "#app/components/forms.tsx";
import { FormDialog, FormDialogCancel } from "#app/components/form-dialog.tsx";
import { DialogFooter } from "#app/components/ui/dialog-layout.tsx";
import { useValidatedForm } from "#app/utils/use-validated-form.ts";
import { useFormReply, type FormReply } from "#app/utils/form-reply.ts";
import { createOrganizationValidator } from "#app/utils/form-validators.ts";

/** The create-organisation dialog; without JavaScript, ?create=1 shows the same form inline. */
export function CreateOrganization() {
  const actionData = useFormReply("create-organization");
  return (
    <FormDialog
      title="Create Organisation"
      description="You become its admin and can invite your team."
      trigger={
        <>
          <Plus aria-hidden /> Create Organisation
        </>
      }
      openHref="/dashboard?create=1"
      failed={actionData !== undefined}
    >
      <CreateOrganizationForm actionData={actionData} />
    </FormDialog>
  );
}

function CreateOrganizationForm({ actionData }: { actionData: FormReply | undefined }) {
  const { form, fields, formProps } = useValidatedForm({
    id: "create-organization",
    validator: createOrganizationValidator,
    actionData,
  });
  return (
    <Form method="post" action="/dashboard?create=1" {...formProps} className="grid gap-4">
      <FormError errors={form.errors} />
      <TextField field={fields.name} label="Organisation Name" autoFocus />
      <TextareaField field={fields.description} label="Description" rows={3} />
      <DialogFooter className="gap-2">
        <FormDialogCancel />
        <SubmitButton intent="create-organization" pendingText="Creating...">
          Create
        </SubmitButton>
      </DialogFooter>
    </Form>
  );
}
