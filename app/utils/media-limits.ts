// The media rules of spec section 5, shared by the browser's early checks and the server's
// streaming checks so both say the same thing.

const MB = 1024 * 1024;

export type FileLimit = { maxBytes: number; tooLarge: string; maxSeconds?: number; tooLong?: string };

export const MEDIA_LIMITS = {
  image: { maxBytes: 5 * MB, tooLarge: "Image must be less than 5MB." },
  cover: { maxBytes: 5 * MB, tooLarge: "Cover image must be less than 5MB." },
  achievementVideo: {
    maxBytes: 50 * MB,
    tooLarge: "Video must be less than 50MB.",
    maxSeconds: 60,
    tooLong: "Achievement video must be 60 seconds (1 minute) or less.",
  },
  introVideo: {
    maxBytes: 25 * MB,
    tooLarge: "Please upload a video smaller than 25MB.",
    maxSeconds: 30,
    tooLong: "Introduction video must be 30 seconds or less.",
  },
} satisfies Record<string, FileLimit>;

export const MEDIA_MESSAGES = {
  tooLargeTitle: "File too large",
  tooLongTitle: "Video too long",
  invalidTypeTitle: "Invalid file type",
  durationTitle: "Error",
  duration: "Failed to validate video duration.",
  invalidImage: "Images must be JPG, PNG or WebP files.",
  invalidMedia: "Choose a JPG, PNG or WebP image, or an MP4, MOV or WebM video.",
  invalidVideo: "Please upload a video file.",
  markupInImage: "This image contains web page code and cannot be used.",
  typeMismatch: "The file's contents do not match its type.",
  emptyFile: "The file is empty.",
} as const;

/**
 * The most pixels each way of a picture that is drawn on the server (the avatar, into the link
 * preview card): its header is read at upload and again before drawing (decision 074).
 */
export const MAX_IMAGE_SIDE = 4096;
export const imageTooLarge = (width: number, height: number) =>
  `This picture is ${width} × ${height} pixels. Choose one of at most ${MAX_IMAGE_SIDE} × ${MAX_IMAGE_SIDE} pixels.`;
export const IMAGE_UNREADABLE = "This picture could not be read. Choose another JPG, PNG or WebP image.";

export const IMAGE_MIME_TYPES = ["image/jpeg", "image/png", "image/webp"];
export const VIDEO_MIME_TYPES = ["video/mp4", "video/quicktime", "video/webm"];

/** A media link points at a video when its path ends in a video extension. */
export function isVideoUrl(url: string) {
  return /\.(mp4|mov|webm)$/i.test(new URL(url).pathname);
}

/** Thumbnails: a JPEG frame at about 10% of the video, never later than 1 second. */
export const THUMBNAIL = {
  mime: "image/jpeg",
  quality: 0.85,
  at: (duration: number) => Math.min(duration * 0.1, 1),
} as const;
