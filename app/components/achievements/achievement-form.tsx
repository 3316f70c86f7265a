import { getInputProps, getSelectProps, type FieldMetadata } from "@conform-to/react";
import { Form, useLocation } from "@remix-run/react";
import { useRef, useState } from "react";
import { FieldError, FormError } from "#app/components/form-messages.tsx";
import { TextareaField, TextField } from "#app/components/forms.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { FormDialogCancel } from "#app/components/form-dialog.tsx";
import { DialogFooter } from "#app/components/ui/dialog-layout.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { NativeSelect } from "#app/components/ui/native-select.tsx";
import { acceptImageSize, prepareVideo } from "#app/utils/media-checks.ts";
import type { giveAchievementSchema, selfAchievementSchema } from "#app/utils/achievement-schemas.ts";
import { giveAchievementValidator, selfAchievementValidator } from "#app/utils/form-validators.ts";
import { IMAGE_MIME_TYPES, MEDIA_LIMITS, VIDEO_MIME_TYPES } from "#app/utils/media-limits.ts";
import { useHydrated } from "#app/utils/use-hydrated.ts";
import { useSubmissionKey } from "#app/utils/use-submission-key.ts";
import { useValidatedForm } from "#app/utils/use-validated-form.ts";
import type { FormReply } from "#app/utils/form-reply.ts";
import { ACHIEVEMENT_TYPE_LABELS } from "#app/utils/achievement-types.ts";

/** Today in the browser's own time zone, as YYYY-MM-DD. */
function localToday() {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
}

export type Member = { userId: string; fullName: string };
type AchievementField =
  "userId" | "company" | "title" | "description" | "date" | "type" | "media" | "cover" | "mediaUrl" | "validUntil";

/** The Add Achievement form (its dialog, which loads it on first opening: achievement-dialog.tsx). */
export function AchievementForm({
  kind,
  formId,
  actionData,
  members,
  defaultUserId,
}: {
  kind: "give" | "self";
  formId: string;
  actionData: FormReply | undefined;
  members: Member[];
  defaultUserId?: string;
}) {
  const location = useLocation();
  const validator = kind === "give" ? giveAchievementValidator : selfAchievementValidator;
  const { form, fields, formProps } = useValidatedForm<typeof giveAchievementSchema | typeof selfAchievementSchema>({
    id: formId,
    validator,
    actionData,
    defaultValue: { type: "award", date: localToday(), ...(kind === "give" ? { userId: defaultUserId } : {}) },
  });
  const all = fields as unknown as Record<AchievementField, FieldMetadata<string | undefined>>;
  const intent = kind === "give" ? "give-achievement" : "add-self-achievement";
  const submissionKey = useSubmissionKey();
  const hydrated = useHydrated();
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      action={`${location.pathname}?add=${encodeURIComponent(formId)}`}
      {...formProps}
      className="grid gap-3"
    >
      {/* First in the body, so the server knows the form even when a file further on is refused. */}
      <input type="hidden" name="formId" value={formId} />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="submissionKey" value={submissionKey} />
      {/* The date is checked against today where the person is (empty without JavaScript). */}
      <input type="hidden" name="timeZone" value={hydrated ? Intl.DateTimeFormat().resolvedOptions().timeZone : ""} />
      <FormError errors={form.errors} />
      {kind === "give" ? (
        <div className="grid gap-2">
          <Label htmlFor={all.userId.id}>Person</Label>
          <NativeSelect {...getSelectProps(all.userId)} key={all.userId.key}>
            <option value="">Select a person</option>
            {members.map((member) => (
              <option key={member.userId} value={member.userId}>
                {member.fullName}
              </option>
            ))}
          </NativeSelect>
          <FieldError id={all.userId.errorId} errors={all.userId.errors} />
        </div>
      ) : null}
      <TextField field={all.title} label="Title" />
      {kind === "self" ? (
        <TextField field={all.company} label="Company/Organization" autoComplete="organization" />
      ) : null}
      <TextareaField field={all.description} label="Description (optional)" rows={3} />
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor={all.date.id}>Date</Label>
          <Input {...getInputProps(all.date, { type: "date" })} key={all.date.key} max={localToday()} />
          <FieldError id={all.date.errorId} errors={all.date.errors} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={all.type.id}>Type</Label>
          <NativeSelect {...getSelectProps(all.type)} key={all.type.key}>
            {Object.entries(ACHIEVEMENT_TYPE_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </NativeSelect>
          <FieldError id={all.type.errorId} errors={all.type.errors} />
        </div>
      </div>
      {kind === "give" ? (
        <div className="grid gap-2">
          <Label htmlFor={all.validUntil.id}>Valid until (optional)</Label>
          <Input {...getInputProps(all.validUntil, { type: "date" })} key={all.validUntil.key} />
          <p id={`${all.validUntil.id}-hint`} className="text-xs text-muted-foreground">
            For a certification that must be renewed: it shows as expired from this day on.
          </p>
          <FieldError id={all.validUntil.errorId} errors={all.validUntil.errors} />
        </div>
      ) : null}
      <MediaFields media={all.media} cover={all.cover} url={all.mediaUrl} />
      <DialogFooter>
        <FormDialogCancel />
        <SubmitButton pendingText="Saving...">
          {kind === "give" ? "Create Achievement" : "Add Achievement"}
        </SubmitButton>
      </DialogFooter>
    </Form>
  );
}

/**
 * A picture or a video (checked in the browser first, with a thumbnail made for it), a cover
 * image for the video, or instead a link; the link is off once a file is chosen. Without
 * JavaScript every field shows and the server does all the checking.
 */
function MediaFields({
  media,
  cover,
  url,
}: {
  media: FieldMetadata<string | undefined>;
  cover: FieldMetadata<string | undefined>;
  url: FieldMetadata<string | undefined>;
}) {
  const hydrated = useHydrated();
  const [chosen, setChosen] = useState<"none" | "image" | "video">("none");
  const thumbnail = useRef<HTMLInputElement>(null);
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <div className="grid gap-2">
        <Label htmlFor={media.id}>Image or video (optional)</Label>
        <Input
          {...getInputProps(media, { type: "file" })}
          key={media.key}
          accept={[...IMAGE_MIME_TYPES, ...VIDEO_MIME_TYPES].join(",")}
          onChange={(event) => {
            const input = event.currentTarget;
            const file = input.files?.[0];
            const kind = !file ? "none" : VIDEO_MIME_TYPES.includes(file.type) ? "video" : "image";
            // An oversized picture is cleared at once, so the link field opens again.
            if (kind === "image" && !acceptImageSize(input, MEDIA_LIMITS.image)) return setChosen("none");
            setChosen(kind);
            if (kind === "video") void prepareVideo(input, thumbnail.current, MEDIA_LIMITS.achievementVideo);
          }}
        />
        <input ref={thumbnail} type="file" name="thumbnail" accept="image/jpeg" hidden tabIndex={-1} aria-hidden />
        <FieldError id={media.errorId} errors={media.errors} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={url.id}>or Image/Video URL</Label>
        <Input
          {...getInputProps(url, { type: "url" })}
          key={url.key}
          placeholder="https://"
          disabled={chosen !== "none"}
        />
        <FieldError id={url.errorId} errors={url.errors} />
      </div>
      {!hydrated || chosen === "video" ? (
        <div className="grid gap-2 sm:col-span-2">
          <Label htmlFor={cover.id}>Cover image for a video (optional)</Label>
          <Input
            {...getInputProps(cover, { type: "file" })}
            key={cover.key}
            accept={IMAGE_MIME_TYPES.join(",")}
            onChange={(event) => acceptImageSize(event.currentTarget, MEDIA_LIMITS.cover)}
          />
          <FieldError id={cover.errorId} errors={cover.errors} />
        </div>
      ) : null}
    </div>
  );
}
