import { THUMBNAIL } from "./media-limits.ts";

// Browser-side reading of a chosen video: its duration (to refuse an over-long one before any
// upload) and a JPEG thumbnail. The server checks the duration again from the file's header.

const METADATA_TIMEOUT_MS = 10_000;
const MAX_THUMBNAIL_WIDTH = 1280;

function once(target: HTMLVideoElement, event: string) {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${event} timed out`)), METADATA_TIMEOUT_MS);
    target.addEventListener(event, () => (clearTimeout(timer), resolve()), { once: true });
    target.addEventListener("error", () => (clearTimeout(timer), reject(new Error("The video cannot be read"))), {
      once: true,
    });
  });
}

/** The video's duration in seconds, or null when the browser cannot read it. */
export async function readVideo(file: File): Promise<{ duration: number; thumbnail: File | null } | null> {
  const url = URL.createObjectURL(file);
  const video = document.createElement("video");
  video.muted = true;
  video.playsInline = true;
  video.preload = "metadata";
  try {
    const loaded = once(video, "loadedmetadata");
    video.src = url;
    await loaded;
    if (!Number.isFinite(video.duration) || video.duration <= 0) return null;
    return { duration: video.duration, thumbnail: await captureThumbnail(video, file.name).catch(() => null) };
  } catch {
    return null;
  } finally {
    video.removeAttribute("src");
    video.load();
    URL.revokeObjectURL(url);
  }
}

/** A JPEG of the frame at about 10% of the video (at most 1 s in); failure is tolerated by callers. */
async function captureThumbnail(video: HTMLVideoElement, name: string) {
  const seeked = once(video, "seeked");
  video.currentTime = THUMBNAIL.at(video.duration);
  await seeked;
  const scale = Math.min(1, MAX_THUMBNAIL_WIDTH / (video.videoWidth || MAX_THUMBNAIL_WIDTH));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(video.videoWidth * scale));
  canvas.height = Math.max(1, Math.round(video.videoHeight * scale));
  canvas.getContext("2d")?.drawImage(video, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, THUMBNAIL.mime, THUMBNAIL.quality));
  return blob ? new File([blob], `${name.replace(/\.[^.]+$/, "")}-thumbnail.jpg`, { type: THUMBNAIL.mime }) : null;
}
