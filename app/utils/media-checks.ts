import { showToast } from "#app/utils/toast.ts";
import { MEDIA_LIMITS, MEDIA_MESSAGES, type FileLimit } from "./media-limits.ts";

// The browser's early checks of a chosen file (the server makes the same ones): the profile's
// uploaders load them when a file is chosen, the achievement form with itself.

/** Clears `input` with the spec's message; false, what a check answers for a refused file. */
function refuse(input: HTMLInputElement, title: string, description: string) {
  showToast({ title, description, variant: "destructive" });
  input.value = "";
  return false;
}

/** Whether `input` holds a file of `kind` (image/..., video/...); one of another kind is refused. */
function holdsKind(input: HTMLInputElement, kind: "image" | "video", otherwise: string) {
  const file = input.files?.[0];
  if (!file) return false;
  return file.type.startsWith(`${kind}/`) || refuse(input, MEDIA_MESSAGES.invalidTypeTitle, otherwise);
}

/**
 * Checks the video chosen in `input` against `limit` (size, then duration read by the browser)
 * and puts a thumbnail into `thumbnail`. A refused video is cleared with the spec's message; a
 * thumbnail that cannot be made is simply left out.
 */
export async function prepareVideo(input: HTMLInputElement, thumbnail: HTMLInputElement | null, limit: FileLimit) {
  const file = input.files?.[0];
  if (thumbnail) thumbnail.value = "";
  if (!file) return false;
  // Decided after the change that chose the file: a form that follows the input hears of it.
  const refuseLate = (title: string, description: string) => {
    refuse(input, title, description);
    input.dispatchEvent(new Event("change", { bubbles: true }));
    return false;
  };
  if (file.size > limit.maxBytes) return refuseLate(MEDIA_MESSAGES.tooLargeTitle, limit.tooLarge);
  // Read only when a video is chosen: the reader is not part of any page's first load.
  const { readVideo } = await import("#app/utils/video-file.ts");
  const video = await readVideo(file);
  if (!video) return refuseLate(MEDIA_MESSAGES.durationTitle, MEDIA_MESSAGES.duration);
  if (limit.maxSeconds && video.duration > limit.maxSeconds)
    return refuseLate(MEDIA_MESSAGES.tooLongTitle, limit.tooLong ?? "");
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
  return !file || file.size <= limit.maxBytes || refuse(input, MEDIA_MESSAGES.tooLargeTitle, limit.tooLarge);
}

/** The profile picture: an image within the image limit. */
export function checkAvatar(input: HTMLInputElement) {
  return holdsKind(input, "image", "Please upload an image file") && acceptImageSize(input, MEDIA_LIMITS.image);
}

/** The introduction video: a video within its size and length, with a thumbnail made for it. */
export async function checkIntroVideo(input: HTMLInputElement, thumbnail: HTMLInputElement | null) {
  return (
    holdsKind(input, "video", MEDIA_MESSAGES.invalidVideo) && prepareVideo(input, thumbnail, MEDIA_LIMITS.introVideo)
  );
}
