import { Hono } from "hono";
import type { WorkerEnv } from "../types.ts";

// Serves uploaded media from R2 by key, with range requests for video seeking.

/** The R2 key a /media path names; null for one that is not valid percent-encoding (`/media/%E0`). */
function mediaKeyOf(pathname: string) {
  try {
    return decodeURIComponent(pathname.replace(/^\/media\//, ""));
  } catch {
    return null;
  }
}
export const mediaRoutes = new Hono<WorkerEnv>().get("/*", async (c) => {
  const key = mediaKeyOf(new URL(c.req.url).pathname);
  // Imported originals are their owner's alone (decision 069): served by /passport/imports only.
  if (!key || key.startsWith("imports/") || key.split("/").some((part) => part === ".." || part === "")) {
    return c.text("Not found", 404);
  }
  const object = await c.env.MEDIA.get(key, {
    range: c.req.raw.headers,
    onlyIf: c.req.raw.headers,
  });
  if (!object) return c.text("Not found", 404);

  const headers = new Headers();
  object.writeHttpMetadata(headers);
  headers.set("ETag", object.httpEtag);
  headers.set("Accept-Ranges", "bytes");
  // Keys never change content: new uploads get new keys, and avatars a new ?v= in their URL.
  headers.set("Cache-Control", "public, max-age=31536000, immutable");
  // Uploaded bytes are never a page: no scripts, no framing, no type sniffing.
  headers.set("Content-Security-Policy", "default-src 'none'; media-src 'self'; sandbox");

  if (!("body" in object)) return new Response(null, { status: 304, headers });
  const range = object.range as { offset?: number; length?: number } | undefined;
  if (range && c.req.header("Range")) {
    const offset = range.offset ?? 0;
    const length = range.length ?? object.size - offset;
    headers.set("Content-Range", `bytes ${offset}-${offset + length - 1}/${object.size}`);
    headers.set("Content-Length", String(length));
    return new Response(object.body, { status: 206, headers });
  }
  headers.set("Content-Length", String(object.size));
  return new Response(object.body, { status: 200, headers });
});
