import { data, redirect } from "@remix-run/cloudflare";
import { safeRedirectPath } from "#app/utils/cookies.server.ts";

/** A fetcher (the bell) stays where it is; a plain form goes back to the page it came from. */
export function readAnswer(redirectTo: string | undefined) {
  return redirectTo ? redirect(safeRedirectPath(redirectTo, "/notifications")) : data({ ok: true });
}
