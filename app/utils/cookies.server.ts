import { createCookie, redirect } from "@remix-run/cloudflare";
import { z } from "zod";
import type { AppEnv } from "./env.server.ts";

const isSecure = (request: Request) => new URL(request.url).protocol === "https:";

// ---- Flash toast: set by an action, shown once by the root after the redirect ----

export const toastSchema = z.object({
  title: z.string(),
  description: z.string().optional(),
  variant: z.enum(["default", "destructive"]).optional(),
});
export type Toast = z.infer<typeof toastSchema>;

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

const TOAST_COOKIE_SENT = new RegExp(`(?:^|;\\s*)${TOAST_COOKIE_NAME}=`);
/** Whether the request carries a pending toast, without verifying it (the edge cache's check). */
export function hasToastCookie(request: Request) {
  return TOAST_COOKIE_SENT.test(request.headers.get("Cookie") ?? "");
}

/** Reads the pending toast, if any, and the header that clears it. */
export async function readToast(env: AppEnv, request: Request) {
  const header = request.headers.get("Cookie");
  if (!header) return { toast: null, clearHeader: null };
  const cookie = toastCookie(env, request);
  const parsed = toastSchema.safeParse(await cookie.parse(header));
  if (!parsed.success) return { toast: null, clearHeader: null };
  return { toast: parsed.data, clearHeader: await cookie.serialize("", { maxAge: 0 }) };
}

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

/** A same-site path to go back to, never an outside URL. */
export function safeRedirectPath(value: unknown, fallback = "/") {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) {
    return fallback;
  }
  return value;
}
