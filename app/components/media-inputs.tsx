import { Form } from "@remix-run/react";
import Trash2 from "lucide-react/icons/trash";
import Upload from "lucide-react/icons/upload";
import { useEffect, useRef, type ChangeEvent } from "react";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";

// The profile's own media controls (picture, introduction video). Both post plain forms to
// /profile/media, so they work without JavaScript; with it, a file of the wrong kind or size is
// refused before it is uploaded, by checks (media-checks.ts) that load when a file is chosen.

export const PROFILE_MEDIA_ACTION = "/profile/media";

type MediaChecks = typeof import("#app/utils/media-checks.ts");

/**
 * A file input's checks: run on change, and once on hydration for a file chosen while the page was
 * still the server's markup (the uploaders hydrate after the first interaction: decision 049).
 */
function useFileCheck(check: (checks: MediaChecks, input: HTMLInputElement) => unknown) {
  const input = useRef<HTMLInputElement>(null);
  const run = useRef((chosen: HTMLInputElement) => {
    if (chosen.files?.length) void import("#app/utils/media-checks.ts").then((checks) => check(checks, chosen));
  }).current;
  useEffect(() => {
    if (input.current) run(input.current);
  }, [run]);
  return { ref: input, onChange: (event: ChangeEvent<HTMLInputElement>) => run(event.currentTarget) };
}

/** Upload Picture: the avatar overwrites the previous one. */
export function AvatarUploader({ redirectTo }: { redirectTo: string }) {
  const fileCheck = useFileCheck((checks, input) => checks.checkAvatar(input));
  return (
    <Form
      method="post"
      action={PROFILE_MEDIA_ACTION}
      encType="multipart/form-data"
      className="grid min-w-0 flex-1 gap-2"
    >
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <Label htmlFor="avatar">Profile picture</Label>
      <div className="flex flex-wrap gap-2">
        <Input
          id="avatar"
          name="avatar"
          type="file"
          accept="image/jpeg,image/png,image/webp"
          required
          className="min-w-48 flex-1"
          {...fileCheck}
        />
        <SubmitButton intent="upload-avatar" variant="outline" pendingText="Uploading...">
          <Upload aria-hidden />
          Upload Picture
        </SubmitButton>
      </div>
    </Form>
  );
}

/** The introduction video: choose, check, upload; or remove the current one. */
export function IntroVideoUploader({
  introVideoUrl,
  redirectTo,
}: {
  introVideoUrl: string | null;
  redirectTo: string;
}) {
  const thumbnail = useRef<HTMLInputElement>(null);
  const fileCheck = useFileCheck((checks, input) => checks.checkIntroVideo(input, thumbnail.current));
  return (
    <div className="grid min-w-0 gap-2">
      <Form method="post" action={PROFILE_MEDIA_ACTION} encType="multipart/form-data" className="grid gap-2">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Label htmlFor="introVideo">Introduction video</Label>
        <p className="text-sm text-muted-foreground" id="introVideo-hint">
          MP4, MOV or WebM, up to 30 seconds and 25MB.
        </p>
        <div className="flex flex-wrap gap-2">
          <Input
            id="introVideo"
            name="introVideo"
            type="file"
            accept="video/mp4,video/quicktime,video/webm"
            required
            aria-describedby="introVideo-hint"
            className="min-w-48 flex-1"
            {...fileCheck}
          />
          <input ref={thumbnail} type="file" name="thumbnail" accept="image/jpeg" hidden tabIndex={-1} aria-hidden />
          <SubmitButton intent="upload-intro-video" variant="outline" pendingText="Uploading...">
            <Upload aria-hidden />
            Upload Video
          </SubmitButton>
        </div>
      </Form>
      {introVideoUrl ? (
        <Form method="post" action={PROFILE_MEDIA_ACTION}>
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <SubmitButton intent="remove-intro-video" variant="ghost" size="sm" pendingText="Removing...">
            <Trash2 aria-hidden />
            Remove
          </SubmitButton>
        </Form>
      ) : null}
    </div>
  );
}
