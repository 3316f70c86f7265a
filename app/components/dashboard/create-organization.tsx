import Plus from "lucide-react/icons/plus";
import { lazy } from "react";
import { FormDialog } from "#app/components/form-dialog.tsx";
import { useFormReply } from "#app/utils/form-reply.ts";
import { CreateOrganizationForm as CreateOrganizationFormNow } from "./create-organization-form.tsx";

const loadCreateOrganizationForm = () => import("./create-organization-form.tsx");
/**
 * The form loads with the dialog's first opening in the browser; the server renders it at once
 * (docs/decisions/039; achievement-dialog.tsx says how).
 */
const CreateOrganizationForm = import.meta.env.SSR
  ? CreateOrganizationFormNow
  : lazy(() => loadCreateOrganizationForm().then((module) => ({ default: module.CreateOrganizationForm })));

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
      prefetch={loadCreateOrganizationForm}
    >
      <CreateOrganizationForm actionData={actionData} />
    </FormDialog>
  );
}
