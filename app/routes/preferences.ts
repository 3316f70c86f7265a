import { data, redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import {
  COOKIE_CONSENT_VALUES,
  safeRedirectPath,
  setCookieConsent,
  setSidebarOpen,
} from "#app/utils/cookies.server.ts";

// Browser preferences (cookie consent, sidebar state) kept in cookies so the server renders the
// first paint right. Posted by fetchers with JavaScript, by plain forms without it.
const preferenceSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("cookie-consent"), value: z.enum(COOKIE_CONSENT_VALUES) }),
  z.object({ intent: z.literal("sidebar"), value: z.enum(["open", "collapsed"]) }),
]);

export async function action({ request }: ActionFunctionArgs) {
  const form = Object.fromEntries(await request.formData());
  const parsed = preferenceSchema.safeParse(form);
  if (!parsed.success) return data({ ok: false, error: "Invalid preference" }, { status: 400 });

  const cookie =
    parsed.data.intent === "cookie-consent"
      ? await setCookieConsent(request, parsed.data.value)
      : await setSidebarOpen(request, parsed.data.value === "open");
  const headers = { "Set-Cookie": cookie };
  // A fetcher stays on its page; a plain form post goes back where it came from.
  if (form.redirectTo === undefined) return data({ ok: true }, { headers });
  return redirect(safeRedirectPath(form.redirectTo), { headers });
}

export function loader() {
  return redirect("/");
}
