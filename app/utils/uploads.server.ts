import { BUCKETS, mediaUrl } from "./media.server.ts";

// Image uploads: the real type comes from the file's first bytes, never from its name or the
// browser's claim, so an HTML or SVG file renamed .png is refused.

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const IMAGE_SIGNATURES = [
  { ext: "jpg", mime: "image/jpeg", matches: (b: Uint8Array) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    ext: "png",
    mime: "image/png",
    matches: (b: Uint8Array) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, i) => b[i] === byte),
  },
  {
    ext: "webp",
    mime: "image/webp",
    matches: (b: Uint8Array) => ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 12) === "WEBP",
  },
] as const;

function ascii(bytes: Uint8Array, start: number, end: number) {
  return String.fromCharCode(...bytes.subarray(start, end));
}

export class UploadError extends Error {
  constructor(
    readonly title: string,
    readonly description: string,
  ) {
    super(description);
  }
}

/** JPG, PNG or WebP by content, or null. */
export function sniffImage(bytes: Uint8Array) {
  return IMAGE_SIGNATURES.find((signature) => signature.matches(bytes)) ?? null;
}

/** Checks an uploaded image and stores it under `keyWithoutExtension`; returns its public URL. */
export async function storeImage(bucket: R2Bucket, file: File, keyWithoutExtension: string, tooLarge: string) {
  if (file.size > MAX_IMAGE_BYTES) throw new UploadError("File too large", tooLarge);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = bytes.length > 0 ? sniffImage(bytes) : null;
  if (!type) throw new UploadError("Invalid file type", "Images must be JPG, PNG or WebP files.");
  const key = `${keyWithoutExtension}.${type.ext}`;
  await bucket.put(key, bytes, { httpMetadata: { contentType: type.mime } });
  return { key, url: mediaUrl(key) };
}

/** Key patterns of the spec, under the bucket prefixes of decisions.md. */
export const imageKeys = {
  organisation: (organizationId: string) => `${BUCKETS.images}/${organizationId}/${crypto.randomUUID()}`,
  self: (userId: string) => `${BUCKETS.images}/self-achievements/${userId}/${crypto.randomUUID()}`,
  avatar: (userId: string) => `${BUCKETS.avatars}/${userId}/avatar`,
};

/** A request body bigger than any upload we accept is refused before it is read. */
export function assertBodyWithin(request: Request, maxBytes: number) {
  const length = Number(request.headers.get("Content-Length") ?? 0);
  if (length > maxBytes) throw new UploadError("File too large", "Image must be less than 5MB.");
}

/** The avatar overwrites {userId}/avatar.{ext}; a picture of another format is removed. */
export async function storeAvatar(bucket: R2Bucket, userId: string, file: File) {
  const stored = await storeImage(bucket, file, imageKeys.avatar(userId), "Image must be less than 5MB.");
  const stale = IMAGE_SIGNATURES.map((signature) => `${imageKeys.avatar(userId)}.${signature.ext}`).filter((key) => key !== stored.key);
  await bucket.delete(stale);
  // The key stays the same; the version makes browsers and caches fetch the new picture.
  return `${stored.url}?v=${Date.now()}`;
}
