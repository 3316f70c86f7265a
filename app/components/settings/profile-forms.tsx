import { Form } from "@remix-run/react";
import { FieldError, FormError } from "#app/components/form-messages.tsx";
import { TextareaField, TextField } from "#app/components/forms.tsx";
import { IntroVideoUploader } from "#app/components/media-inputs.tsx";
import { IntroVideo } from "#app/components/passport/intro-video.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { Checkbox } from "#app/components/ui/checkbox.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { useFormReply } from "#app/utils/form-reply.ts";
import { feedbackValidator, preferencesValidator, profileValidator } from "#app/utils/form-validators.ts";
import { useSubmissionKey } from "#app/utils/use-submission-key.ts";
import { useValidatedForm } from "#app/utils/use-validated-form.ts";
import { useViewer } from "#app/utils/use-viewer.ts";

/**
 * Settings' profile section (/settings), its forms in the order the page shows them. A chunk of
 * its own, with Conform: the page's first load does not carry it, and these forms hydrate after the
 * page's first interaction (decision 049); until then they are the server's HTML and post as such.
 */
export function ProfileForms() {
  return (
    <>
      <ProfileSettings />
      <PrivacyAndEmails />
      <BetaFeedback />
    </>
  );
}

function ProfileSettings() {
  const actionData = useFormReply("update-profile");
  const viewer = useViewer();
  const { form, fields, formProps } = useValidatedForm({
    id: "update-profile",
    validator: profileValidator,
    actionData,
    defaultValue: { fullName: viewer.fullName, bio: viewer.bio ?? "", isPublic: viewer.isPublic ? "on" : undefined },
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Profile Settings</CardTitle>
      </CardHeader>
      <CardContent>
        <Form method="post" {...formProps} className="grid gap-4">
          <FormError errors={form.errors} />
          <TextField field={fields.fullName} label="Full Name" autoComplete="name" />
          <div className="grid gap-2">
            <Label htmlFor="email">Email</Label>
            <Input id="email" type="email" value={viewer.email} disabled aria-describedby="email-note" />
            <p id="email-note" className="text-sm text-muted-foreground">
              Email cannot be changed here. Contact support to update your email.
            </p>
          </div>
          <TextareaField
            field={fields.bio}
            label="Bio"
            rows={4}
            placeholder="Write a short introduction about yourself..."
          />
          {/* Every account has a public passport (shared decisions), organisation accounts too. */}
          <div className="flex items-start gap-3">
            <Checkbox
              id={fields.isPublic.id}
              name={fields.isPublic.name}
              defaultChecked={fields.isPublic.initialValue === "on"}
              className="mt-0.5"
              aria-describedby="public-note"
            />
            <div className="grid gap-1">
              <Label htmlFor={fields.isPublic.id}>Public passport</Label>
              <p id="public-note" className="text-sm text-muted-foreground">
                Anyone with your link can see your accepted achievements. When off, only you can.
              </p>
            </div>
          </div>
          <div>
            <SubmitButton intent="update-profile" pendingText="Saving...">
              Save Profile
            </SubmitButton>
          </div>
        </Form>
        {/* Its own form: a video uploads on its own, never held up by the profile fields. */}
        <div className="mt-6 grid gap-3 border-t pt-6">
          <IntroVideo url={viewer.introVideoUrl} thumbnailUrl={viewer.introVideoThumbnailUrl} />
          <IntroVideoUploader introVideoUrl={viewer.introVideoUrl} redirectTo="/settings" />
        </div>
      </CardContent>
    </Card>
  );
}

function PrivacyAndEmails() {
  const actionData = useFormReply("update-preferences");
  const viewer = useViewer();
  const { fields, formProps } = useValidatedForm({
    id: "update-preferences",
    validator: preferencesValidator,
    actionData,
    defaultValue: {
      searchIndexing: viewer.searchIndexing ? "on" : undefined,
      recognitionEmails: viewer.recognitionEmails ? "on" : undefined,
    },
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Privacy and Emails</CardTitle>
      </CardHeader>
      <CardContent>
        <Form method="post" {...formProps} className="grid gap-4">
          {viewer.userType === "individual" ? (
            <CheckboxField
              id={fields.searchIndexing.id}
              name={fields.searchIndexing.name}
              defaultChecked={fields.searchIndexing.initialValue === "on"}
              label="Show in search engines"
              note="Search engines may list your public passport. When off, it asks them not to."
            />
          ) : (
            <input type="hidden" name={fields.searchIndexing.name} value={viewer.searchIndexing ? "on" : ""} />
          )}
          <CheckboxField
            id={fields.recognitionEmails.id}
            name={fields.recognitionEmails.name}
            defaultChecked={fields.recognitionEmails.initialValue === "on"}
            label="Email me when an organisation recognises me"
            note="You are always told in the app as well."
          />
          <div>
            <SubmitButton intent="update-preferences" pendingText="Saving...">
              Save Preferences
            </SubmitButton>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}

function CheckboxField(props: { id: string; name: string; defaultChecked: boolean; label: string; note: string }) {
  return (
    <div className="flex items-start gap-3">
      <Checkbox
        id={props.id}
        name={props.name}
        defaultChecked={props.defaultChecked}
        className="mt-0.5"
        aria-describedby={`${props.id}-note`}
      />
      <div className="grid gap-1">
        <Label htmlFor={props.id}>{props.label}</Label>
        <p id={`${props.id}-note`} className="text-sm text-muted-foreground">
          {props.note}
        </p>
      </div>
    </div>
  );
}

function BetaFeedback() {
  const actionData = useFormReply("send-feedback");
  const { fields, formProps } = useValidatedForm({ id: "send-feedback", validator: feedbackValidator, actionData });
  const submissionKey = useSubmissionKey();
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Beta Feedback</CardTitle>
        <CardDescription>Tell us what works, what does not, and what you would like next.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" {...formProps} className="grid gap-4">
          <input type="hidden" name="submissionKey" value={submissionKey} />
          <TextareaField field={fields.message} label="Your feedback" rows={4} />
          <fieldset className="grid gap-2">
            <legend className="text-sm font-medium">Rating (optional)</legend>
            <div className="flex flex-wrap gap-3">
              {[1, 2, 3, 4, 5].map((rating) => (
                <label key={rating} className="flex items-center gap-1.5 text-sm">
                  <input
                    type="radio"
                    name={fields.rating.name}
                    value={rating}
                    defaultChecked={fields.rating.initialValue === String(rating)}
                    className="accent-primary"
                  />
                  {rating}
                </label>
              ))}
            </div>
            <FieldError errors={fields.rating.errors} />
          </fieldset>
          <div>
            <SubmitButton intent="send-feedback" pendingText="Sending...">
              Send Feedback
            </SubmitButton>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
