import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { runIntent } from "#app/utils/intent.server.ts";
import { cookieConsentIntent } from "./cookie-consent.server.ts";
import { sidebarIntent } from "./sidebar.server.ts";

// Browser preferences (cookie consent, sidebar state) kept in cookies so the server renders the
// first paint right. Posted by fetchers with JavaScript, by plain forms without it; anyone may.
const INTENTS = { "cookie-consent": cookieConsentIntent, sidebar: sidebarIntent };

export async function action({ request, context }: ActionFunctionArgs) {
  const fields = await request.formData();
  return runIntent({ request, context }, INTENTS, { viewer: null, fields, back: "/" });
}

export function loader() {
  return redirect("/");
}
