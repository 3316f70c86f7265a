import type { AppLoadContext } from "@remix-run/cloudflare";

/** Local stand-ins (dev mailbox, simulated checkout) do not exist in production. */
export function requireDevelopment(context: AppLoadContext) {
  if (context.env.ENVIRONMENT === "production") throw new Response("Not Found", { status: 404 });
}
