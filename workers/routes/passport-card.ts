import { Hono, type Context } from "hono";
import {
  edgeCache,
  LANDING_CARD_CACHE_KEY,
  passportCacheOrigin,
  passportCardCacheKey,
  passportEdgeSeconds,
} from "#app/utils/passport-cache.server.ts";
import { errorSummary, log } from "#app/utils/log.server.ts";
import { mediaKeyFromUrl } from "#app/utils/media.server.ts";
import { MAX_IMAGE_SIDE } from "#app/utils/media-limits.ts";
import { imageDimensions } from "#app/utils/media-types.server.ts";
import { loadPassport } from "#db/queries/achievements/public.ts";
import { renderLandingCard, renderPassportCard } from "../card/render.ts";
import type { WorkerEnv } from "../types.ts";

// GET /passport/{userId}/card.png and GET /card.png: the link preview images (og:image) of a
// public passport and of the landing page. Public, like the pages they illustrate; rendered once
// and then served from the edge cache, which every change of the passport purges
// (invalidatePassports). A passport switched off, archived or missing has no card (404).

const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An avatar larger than this is left out (initials instead): the card stays cheap to draw. */
const MAX_AVATAR_BYTES = 2 * 1024 * 1024;
const DRAWABLE_AVATAR_TYPES = ["image/png", "image/jpeg"];

/**
 * Crawlers may keep a card an hour; the edge keeps it until the passport changes (a day at most,
 * a minute in production without the purge API: decision 073).
 */
const BROWSER_CACHE_CONTROL = "public, max-age=3600";
/**
 * A card that could not be drawn is not tried again for this long (decision 074): its failure is
 * kept at the edge under the card's key, so a crawler or a flood of requests costs one render a
 * minute, and a change of the passport (a new avatar) purges it as it purges the card.
 */
const FAILED_RENDER_SECONDS = 60;
const FAILED_RENDER_HEADER = "X-Card-Render-Failed";
const EDGE_SECONDS = 86400;

/** A drawn card, and whether search engines are asked not to index it (the person's choice). */
type Card = { png: Uint8Array; noindex?: boolean };

async function cached(c: Context<WorkerEnv>, key: string, render: () => Promise<Card | null>) {
  const hit = await edgeCache().match(key);
  if (hit?.headers.has(FAILED_RENDER_HEADER)) {
    await hit.body?.cancel();
    return unavailable("HIT");
  }
  if (hit) return withHeaders(hit.body, "HIT", hit.headers.get("X-Robots-Tag"));
  let rendered: Card | null;
  try {
    rendered = await render();
  } catch (error) {
    const path = new URL(c.req.url).pathname;
    log("error", "card render failed", { path, requestId: c.get("requestId"), error: errorSummary(error) });
    const failure = new Response(null, {
      headers: { "Cache-Control": `public, s-maxage=${FAILED_RENDER_SECONDS}`, [FAILED_RENDER_HEADER]: "1" },
    });
    c.executionCtx.waitUntil(edgeCache().put(key, failure));
    return unavailable("MISS");
  }
  if (!rendered) return c.text("Not found", 404);
  const png = new Uint8Array(rendered.png);
  const robots = rendered.noindex ? "noindex" : null;
  const stored = new Response(png.slice(), {
    headers: {
      "Content-Type": "image/png",
      "Cache-Control": `public, s-maxage=${passportEdgeSeconds(c.get("loadContext").env, EDGE_SECONDS)}`,
      ...(robots ? { "X-Robots-Tag": robots } : {}),
    },
  });
  c.executionCtx.waitUntil(edgeCache().put(key, stored));
  return withHeaders(png, "MISS", robots);
}

/** A card that could not be drawn: crawlers are asked to come back once it may be tried again. */
function unavailable(cache: "HIT" | "MISS") {
  return new Response("The card cannot be drawn right now.", {
    status: 503,
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "no-store",
      "Retry-After": String(FAILED_RENDER_SECONDS),
      "X-Card-Cache": cache,
    },
  });
}

function withHeaders(body: BodyInit | null, cache: "HIT" | "MISS", robots: string | null) {
  return new Response(body, {
    headers: {
      "Content-Type": "image/png",
      "Cache-Control": BROWSER_CACHE_CONTROL,
      "X-Card-Cache": cache,
      "Content-Security-Policy": "default-src 'none'; sandbox",
      // The passport page says noindex in its meta; an image can only say it in a header.
      ...(robots ? { "X-Robots-Tag": robots } : {}),
    },
  });
}

async function avatarDataUrl(bucket: R2Bucket, url: string | null) {
  const key = mediaKeyFromUrl(url);
  if (!key) return null;
  const object = await bucket.get(key);
  const type = object?.httpMetadata?.contentType ?? "";
  if (!object || object.size > MAX_AVATAR_BYTES || !DRAWABLE_AVATAR_TYPES.includes(type)) {
    await object?.body.cancel();
    return null;
  }
  const bytes = new Uint8Array(await object.arrayBuffer());
  // Only a picture whose header reads, within the upload's pixels, is decoded (decision 074): an
  // older upload, or one written around the checks, draws the card with initials instead.
  const size = imageDimensions(bytes);
  if (!size || size.width > MAX_IMAGE_SIDE || size.height > MAX_IMAGE_SIDE) return null;
  let binary = "";
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return `data:${type};base64,${btoa(binary)}`;
}

export const passportCardRoutes = new Hono<WorkerEnv>()
  .get("/card.png", (c) => cached(c, LANDING_CARD_CACHE_KEY, async () => ({ png: await renderLandingCard() })))
  .get("/passport/:userId/card.png", (c) => {
    const userId = c.req.param("userId");
    if (!USER_ID.test(userId)) return c.text("Not found", 404);
    const context = c.get("loadContext");
    return cached(c, passportCardCacheKey(passportCacheOrigin(context.env), userId), async () => {
      const passport = await loadPassport(context.db, userId, { size: 3 });
      if (!passport || !passport.profile.isPublic || passport.profile.deletedAt) return null;
      const png = await renderPassportCard({
        name: passport.profile.fullName.trim() || "Professional",
        avatar: await avatarDataUrl(c.env.MEDIA, passport.profile.avatarUrl).catch(() => null),
        total: passport.total,
        achievements: passport.achievements,
      });
      return { png, noindex: !passport.profile.searchIndexing };
    });
  });
