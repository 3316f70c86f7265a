import type { MediaType } from "./media-types.server.ts";

// The spec's three storage buckets are key prefixes in one R2 bucket, served at /media/{key}.
export const MEDIA_PREFIX = "/media/";
export const BUCKETS = {
  images: "achievement-images",
  videos: "achievement-videos",
  avatars: "avatars",
} as const;

/** Where a person's imported originals live (decision 069): never served by /media, only to their owner. */
export const importsPrefix = (userId: string) => `imports/${userId}/`;

/** A file stored in R2 under `key`, served at `url`, as read while it streamed in. */
export type StoredFile = { key: string; url: string; type: MediaType; duration: number | null; size: number };

export function mediaUrl(key: string) {
  return MEDIA_PREFIX + key.split("/").map(encodeURIComponent).join("/");
}

const RESPONSIVE_WIDTHS = [320, 640, 960, 1280];

/**
 * A srcset of resized copies of one of our images through Cloudflare image resizing, when the
 * zone has it (IMAGE_RESIZING); otherwise none, and the original serves every screen.
 */
export function responsiveSrcSet(url: string | null, resizing: boolean) {
  if (!resizing || !url?.startsWith(MEDIA_PREFIX)) return undefined;
  return RESPONSIVE_WIDTHS.map(
    (width) => `/cdn-cgi/image/width=${width},fit=scale-down,format=auto${url} ${width}w`,
  ).join(", ");
}

/** The R2 key behind one of our media URLs, or null for an outside URL. */
export function mediaKeyFromUrl(url: string | null | undefined) {
  if (!url?.startsWith(MEDIA_PREFIX)) return null;
  // Avatars carry a ?v= version for caches; it is not part of the key.
  const path = url.slice(MEDIA_PREFIX.length).split("?")[0] ?? "";
  return path.split("/").map(decodeURIComponent).join("/");
}

/** Key prefixes holding only this user's files (avatar, intro video, self achievement media). */
export function userMediaPrefixes(userId: string) {
  return [
    `${BUCKETS.avatars}/${userId}/`,
    `${BUCKETS.videos}/intro-${userId}-`,
    `${BUCKETS.images}/self-achievements/${userId}/`,
    `${BUCKETS.videos}/self-achievements/${userId}/`,
    importsPrefix(userId),
  ];
}

/** The keys of our files behind these URLs; outside links are left out. */
export const mediaKeys = (urls: (string | null | undefined)[]) =>
  urls.map(mediaKeyFromUrl).filter((key): key is string => key !== null);

/** Deletes our files behind these URLs (R2 takes at most 1000 keys a call); outside links are ignored. */
export async function deleteMedia(bucket: R2Bucket, urls: (string | null | undefined)[]) {
  const keys = mediaKeys(urls);
  for (let start = 0; start < keys.length; start += 1000) await bucket.delete(keys.slice(start, start + 1000));
}

/** Every object under `prefix`, a listing (up to a thousand objects) at a time. */
export async function* listingsUnder(bucket: R2Bucket, prefix: string) {
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor });
    yield page.objects;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}

export async function deleteByPrefix(bucket: R2Bucket, prefix: string) {
  for await (const objects of listingsUnder(bucket, prefix)) {
    if (objects.length) await bucket.delete(objects.map((object) => object.key));
  }
}
