import { Form } from "@remix-run/react";
import Trash2 from "lucide-react/icons/trash";
import Upload from "lucide-react/icons/upload";
import { useRef } from "react";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { showToast } from "#app/utils/toast.ts";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { MEDIA_LIMITS, MEDIA_MESSAGES, type FileLimit } from "#app/utils/media-limits.ts";

// The profile's own media controls (picture, introduction video) and the browser-side video
// check they share with the achievement form. All of them post plain forms to /profile/media,
// so they work without JavaScript; with it, a bad video is refused before it is uploaded.

export const PROFILE_MEDIA_ACTION = "/profile/media";

/**
 * Checks the video chosen in `input` against `limit` (size, then duration read by the browser)
 * and puts a thumbnail into `thumbnail`. A refused video is cleared with the spec's message; a
 * thumbnail that cannot be made is simply left out.
 */
export async function prepareVideo(input: HTMLInputElement, thumbnail: HTMLInputElement | null, limit: FileLimit) {
  const file = input.files?.[0];
  if (thumbnail) thumbnail.value = "";
  if (!file) return false;
  const refuse = (title: string, description: string) => {
    showToast({ title, description, variant: "destructive" });
    input.value = "";
    input.dispatchEvent(new Event("change", { bubbles: true }));
    return false;
  };
  if (file.size > limit.maxBytes) return refuse(MEDIA_MESSAGES.tooLargeTitle, limit.tooLarge);
  // Read only when a video is chosen: the reader is not part of any page's first load.
  const { readVideo } = await import("#app/utils/video-file.ts");
  const video = await readVideo(file);
  if (!video) return refuse(MEDIA_MESSAGES.durationTitle, MEDIA_MESSAGES.duration);
  if (limit.maxSeconds && video.duration > limit.maxSeconds)
    return refuse(MEDIA_MESSAGES.tooLongTitle, limit.tooLong ?? "");
  if (thumbnail && video.thumbnail) {
    const files = new DataTransfer();
    files.items.add(video.thumbnail);
    thumbnail.files = files.files;
  }
  return true;
}

/**
 * Refuses (clears, with the spec's 'File too large' toast) a picture in `input` over `limit`
 * before any byte is uploaded; the server refuses it too. True when the file may go.
 */
export function acceptImageSize(input: HTMLInputElement, limit: FileLimit) {
  const file = input.files?.[0];
  if (!file || file.size <= limit.maxBytes) return true;
  showToast({ title: MEDIA_MESSAGES.tooLargeTitle, description: limit.tooLarge, variant: "destructive" });
  input.value = "";
  return false;
}

/** Upload Picture: the avatar overwrites the previous one. */
export function AvatarUploader({ redirectTo }: { redirectTo: string }) {
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
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            if (!file) return;
            if (!file.type.startsWith("image/")) {
              showToast({
                title: MEDIA_MESSAGES.invalidTypeTitle,
                description: "Please upload an image file",
                variant: "destructive",
              });
              event.currentTarget.value = "";
            } else acceptImageSize(event.currentTarget, MEDIA_LIMITS.image);
          }}
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
            onChange={(event) => {
              const input = event.currentTarget;
              const file = input.files?.[0];
              if (!file) return;
              if (!file.type.startsWith("video/")) {
                showToast({
                  title: MEDIA_MESSAGES.invalidTypeTitle,
                  description: MEDIA_MESSAGES.invalidVideo,
                  variant: "destructive",
                });
                input.value = "";
                return;
              }
              void prepareVideo(input, thumbnail.current, MEDIA_LIMITS.introVideo);
            }}
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
