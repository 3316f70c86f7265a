import { showToast } from "#app/utils/toast.ts";
import { MEDIA_LIMITS, MEDIA_MESSAGES, type FileLimit } from "./media-limits.ts";

// The browser's early checks of a chosen file (the server makes the same ones): the profile's
// uploaders load them when a file is chosen, the achievement form with itself.

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

/** The profile picture: an image within the image limit. */
export function checkAvatar(input: HTMLInputElement) {
  const file = input.files?.[0];
  if (!file) return false;
  if (!file.type.startsWith("image/")) {
    showToast({
      title: MEDIA_MESSAGES.invalidTypeTitle,
      description: "Please upload an image file",
      variant: "destructive",
    });
    input.value = "";
    return false;
  }
  return acceptImageSize(input, MEDIA_LIMITS.image);
}

/** The introduction video: a video within its size and length, with a thumbnail made for it. */
export function checkIntroVideo(input: HTMLInputElement, thumbnail: HTMLInputElement | null) {
  const file = input.files?.[0];
  if (!file) return false;
  if (!file.type.startsWith("video/")) {
    showToast({
      title: MEDIA_MESSAGES.invalidTypeTitle,
      description: MEDIA_MESSAGES.invalidVideo,
      variant: "destructive",
    });
    input.value = "";
    return false;
  }
  return prepareVideo(input, thumbnail, MEDIA_LIMITS.introVideo);
}
