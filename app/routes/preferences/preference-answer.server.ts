import { data, redirect } from "@remix-run/cloudflare";
import { safeRedirectPath } from "#app/utils/cookies.server.ts";

/** The new cookie: a fetcher stays on its page; a plain form post goes back where it came from. */
export function preferenceAnswer(fields: FormData, cookie: string) {
  const headers = { "Set-Cookie": cookie };
  const redirectTo = fields.get("redirectTo");
  if (redirectTo === null) return data({ ok: true }, { headers });
  return redirect(safeRedirectPath(redirectTo), { headers });
}
