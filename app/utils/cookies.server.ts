import { createCookie, redirect, type Cookie } from "@remix-run/cloudflare";
import { z } from "zod";
import type { AppEnv } from "./env.server.ts";
import type { Toast } from "./toast-message.ts";

const isSecure = (request: Request) => new URL(request.url).protocol === "https:";

/**
 * A signed cookie's value, or null when it is missing, forged or malformed: Remix's parser
 * throws on a value that is not base64, and a visitor's cookie must never fail their request.
 */
async function parseSigned(cookie: Cookie, header: string | null): Promise<unknown> {
  try {
    return await cookie.parse(header);
  } catch {
    return null;
  }
}

// ---- Flash toast: set by an action, shown once by the root after the redirect ----

export const toastSchema = z.object({
  title: z.string(),
  description: z.string().optional(),
  variant: z.enum(["default", "destructive"]).optional(),
}) satisfies z.ZodType<Toast>;

const TOAST_COOKIE_NAME = "passport_toast";
const toastCookie = (env: AppEnv, request: Request) =>
  createCookie(TOAST_COOKIE_NAME, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: isSecure(request),
    secrets: [env.SESSION_SECRET],
    maxAge: 60,
  });

export async function toastHeader(env: AppEnv, request: Request, toast: Toast) {
  return toastCookie(env, request).serialize(toast);
}

export async function redirectWithToast(
  env: AppEnv,
  request: Request,
  url: string,
  toast: Toast,
  init: ResponseInit = {},
) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastHeader(env, request, toast));
  return redirect(url, { ...init, headers });
}

/** Reads the pending toast, if any, and the header that clears it. */
export async function readToast(env: AppEnv, request: Request) {
  const header = request.headers.get("Cookie");
  if (!header) return { toast: null, clearHeader: null };
  const cookie = toastCookie(env, request);
  const parsed = toastSchema.safeParse(await parseSigned(cookie, header));
  if (!parsed.success) return { toast: null, clearHeader: null };
  return { toast: parsed.data, clearHeader: await cookie.serialize("", { maxAge: 0 }) };
}

// ---- The browser that signed up: only it is signed in by confirming the address ----

const SIGN_UP_COOKIE_NAME = "passport_signup";
const signUpCookie = (env: AppEnv, request: Request) =>
  createCookie(SIGN_UP_COOKIE_NAME, {
    path: "/auth",
    httpOnly: true,
    sameSite: "lax",
    secure: isSecure(request),
    secrets: [env.SESSION_SECRET],
    // As long as the confirmation link lives.
    maxAge: 60 * 60 * 24,
  });

/** Set by a sign-up: the account this browser created (signed, so it cannot be claimed). */
export const signUpCookieHeader = (env: AppEnv, request: Request, userId: string) =>
  signUpCookie(env, request).serialize(userId);

/** The account this browser signed up, if any. */
export async function readSignUpCookie(env: AppEnv, request: Request) {
  const value = await parseSigned(signUpCookie(env, request), request.headers.get("Cookie"));
  return typeof value === "string" ? value : null;
}

export const clearSignUpCookieHeader = (env: AppEnv, request: Request) =>
  signUpCookie(env, request).serialize("", { maxAge: 0 });

// ---- The D1 bookmark: a browser that wrote reads its own writes on its next request ----

const D1_BOOKMARK_COOKIE_NAME = "passport_d1_bookmark";
/**
 * D1's bookmark format (hex parts separated by dashes, 68 characters today); anything else is
 * not a bookmark we issued. The length cap keeps a forged value from costing any work.
 */
const D1_BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;
const D1_BOOKMARK_MAX_LENGTH = 68;
const d1BookmarkCookie = (env: AppEnv, request: Request) =>
  createCookie(D1_BOOKMARK_COOKIE_NAME, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: isSecure(request),
    // Signed: only a bookmark this server handed out is ever given to D1 (docs/decisions/029).
    secrets: [env.SESSION_SECRET],
    // Renewed by every signed-in response that read or wrote; without it a request reads from
    // the primary, which is always consistent, only slower.
    maxAge: 60 * 60 * 24 * 7,
  });

export const isD1Bookmark = (value: unknown): value is string =>
  typeof value === "string" && value.length <= D1_BOOKMARK_MAX_LENGTH && D1_BOOKMARK.test(value);

const D1_BOOKMARK_COOKIE_SENT = new RegExp(`(?:^|;\\s*)${D1_BOOKMARK_COOKIE_NAME}=`);
/** The bookmark this browser was last given, if it carries a valid, signed one. */
export async function readD1Bookmark(env: AppEnv, request: Request) {
  const header = request.headers.get("Cookie");
  // Most visitors carry no bookmark: no signature to check.
  if (!header || !D1_BOOKMARK_COOKIE_SENT.test(header)) return null;
  const value = await parseSigned(d1BookmarkCookie(env, request), header);
  return isD1Bookmark(value) ? value : null;
}

export const d1BookmarkCookieHeader = (env: AppEnv, request: Request, bookmark: string) =>
  d1BookmarkCookie(env, request).serialize(bookmark);

// ---- Preferences the server needs to render the first paint without layout shift ----

export const COOKIE_CONSENT_VALUES = ["accepted", "declined"] as const;
export type CookieConsent = (typeof COOKIE_CONSENT_VALUES)[number];
const ONE_YEAR = 60 * 60 * 24 * 365;
export const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7;

const cookieConsentCookie = createCookie("cookie-consent", { path: "/", sameSite: "lax", maxAge: ONE_YEAR });
const sidebarCookie = createCookie("sidebar_state", { path: "/", sameSite: "lax", maxAge: SIDEBAR_COOKIE_MAX_AGE });

const consentSchema = z.enum(COOKIE_CONSENT_VALUES);
const sidebarSchema = z.boolean();
/** What a visitor who never made a choice gets: the cookie banner and an open sidebar. */
const DEFAULT_PREFERENCES = { cookieConsent: null, sidebarOpen: true } as const;

export async function readPreferences(request: Request) {
  const header = request.headers.get("Cookie");
  // Most visitors of a shared passport send no cookie at all: nothing to parse.
  if (!header) return DEFAULT_PREFERENCES;
  const consent = consentSchema.safeParse(await cookieConsentCookie.parse(header));
  const sidebar = sidebarSchema.safeParse(await sidebarCookie.parse(header));
  return {
    cookieConsent: consent.success ? consent.data : null,
    sidebarOpen: sidebar.success ? sidebar.data : true,
  };
}

export const setCookieConsent = (request: Request, value: CookieConsent) =>
  cookieConsentCookie.serialize(value, { secure: isSecure(request) });
export const setSidebarOpen = (request: Request, open: boolean) =>
  sidebarCookie.serialize(open, { secure: isSecure(request) });

const REDIRECT_BASE = new URL("https://redirect.invalid");

/**
 * A path on this origin to go back to, never an outside URL. The value is judged as a browser
 * would read it: the URL parser drops tabs and newlines and reads `\` as `/`, so `/\t/evil` and
 * `/\\evil` lead elsewhere; and percent-encoded slashes, backslashes and controls (`/%09/evil`,
 * `/%2F%2Fevil`, `/%5Cevil`) are refused too, whatever a later hop would make of them.
 */
export function safeRedirectPath(value: unknown, fallback = "/") {
  if (typeof value !== "string" || !value.startsWith("/") || value.length > 2048) return fallback;
  let decoded = value;
  for (let round = 0; round < 3; round++) {
    try {
      const next = decodeURIComponent(decoded);
      if (next === decoded) break;
      decoded = next;
    } catch {
      return fallback;
    }
  }
  // eslint-disable-next-line no-control-regex -- control characters are what is being refused
  if (/[\u0000-\u001f\u007f\\]/.test(decoded) || /^\/[\s/]/.test(decoded) || /^\/[^?#]*\/\//.test(decoded))
    return fallback;
  let url: URL;
  try {
    url = new URL(value, REDIRECT_BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== REDIRECT_BASE.origin || url.username || url.password) return fallback;
  const path = url.pathname + url.search + url.hash;
  return path.startsWith("//") ? fallback : path;
}
