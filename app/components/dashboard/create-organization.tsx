import { Form, Link, useActionData, useLocation } from "@remix-run/react";
import { Plus } from "lucide-react";
import { useEffect, useState } from "react";
import { FormError, SubmitButton, TextareaField, TextField } from "#app/components/forms.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "#app/components/ui/dialog.tsx";
import { useHydrated } from "#app/utils/use-hydrated.ts";
import { useValidatedForm, type FormActionData } from "#app/utils/use-validated-form.ts";
import { descriptionField, organizationNameField } from "#app/utils/validation.ts";
import { z } from "zod";

/** The form's one schema: the dashboard's action validates with it, the browser too. */
export const createOrganizationSchema = z.object({
  intent: z.literal("create-organization"),
  name: organizationNameField,
  description: descriptionField,
});

/** The create-organisation dialog; without JavaScript, ?create=1 shows the same form inline. */
export function CreateOrganization() {
  const hydrated = useHydrated();
  const location = useLocation();
  const actionData = useActionData() as FormActionData;
  const [open, setOpen] = useState(false);
  // A successful submit redirects (a new location): the dialog's work is done.
  useEffect(() => setOpen(false), [location.key]);
  useEffect(() => {
    if (actionData?.result?.status === "error") setOpen(true);
  }, [actionData]);

  if (!hydrated) {
    if (!new URLSearchParams(location.search).has("create")) {
      return (
        <Button asChild>
          <Link to="/dashboard?create=1">
            <Plus aria-hidden /> Create Organisation
          </Link>
        </Button>
      );
    }
    return (
      <Card>
        <CardHeader>
          <CardTitle as="h2">Create Organisation</CardTitle>
        </CardHeader>
        <CardContent>
          <CreateOrganizationForm actionData={actionData} />
        </CardContent>
      </Card>
    );
  }

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden /> Create Organisation
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create Organisation</DialogTitle>
          <DialogDescription>You become its admin and can invite your team.</DialogDescription>
        </DialogHeader>
        <CreateOrganizationForm actionData={actionData} />
      </DialogContent>
    </Dialog>
  );
}

function CreateOrganizationForm({ actionData }: { actionData: FormActionData }) {
  const hydrated = useHydrated();
  const { form, fields, formProps } = useValidatedForm({ id: "create-organization", schema: createOrganizationSchema, actionData });
  return (
    <Form method="post" action="/dashboard?create=1" {...formProps} className="grid gap-4">
      <FormError errors={form.errors} />
      <TextField field={fields.name} label="Organisation Name" autoFocus />
      <TextareaField field={fields.description} label="Description" rows={3} />
      <DialogFooter className="gap-2">
        {hydrated ? (
          <DialogClose asChild>
            <Button type="button" variant="outline">
              Cancel
            </Button>
          </DialogClose>
        ) : (
          <Button asChild variant="outline">
            <Link to="/dashboard">Cancel</Link>
          </Button>
        )}
        <SubmitButton intent="create-organization" pendingText="Creating...">
          Create
        </SubmitButton>
      </DialogFooter>
    </Form>
  );
}
