import { Form, Link } from "@remix-run/react";
import { TextareaField } from "#app/components/forms.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import type { FormReply } from "#app/utils/form-reply.ts";
import { bioValidator } from "#app/utils/form-validators.ts";
import { useHydrated } from "#app/utils/use-hydrated.ts";
import { useValidatedForm } from "#app/utils/use-validated-form.ts";

/**
 * The biography's edit form (routes/_app.passport._index/), loaded when Edit is first pressed
 * (docs/decisions/039). Cancel closes it, or without JavaScript goes back to the passport.
 */
export function BioForm({
  bio,
  actionData,
  onCancel,
}: {
  bio: string | null;
  actionData: FormReply | undefined;
  onCancel: () => void;
}) {
  const hydrated = useHydrated();
  const { fields, formProps } = useValidatedForm({
    id: "bio",
    validator: bioValidator,
    actionData,
    defaultValue: { bio: bio ?? "" },
  });
  return (
    <Form method="post" action="/passport" {...formProps} className="grid gap-3">
      <TextareaField
        field={fields.bio}
        label="Biography"
        rows={5}
        placeholder="Write a short introduction about yourself..."
        autoFocus
      />
      <div className="flex gap-2">
        <SubmitButton intent="update-bio" pendingText="Saving...">
          Save
        </SubmitButton>
        {hydrated ? (
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        ) : (
          <Link to="/passport" className={buttonVariants({ variant: "outline" })}>
            Cancel
          </Link>
        )}
      </div>
    </Form>
  );
}
