import type { AppLoadContext } from "@remix-run/cloudflare";
import { errorSummary, log } from "#app/utils/log.server.ts";

/** Local stand-ins (dev mailbox, simulated checkout) do not exist in production. */
export function requireDevelopment(context: AppLoadContext) {
  if (context.env.ENVIRONMENT === "production") throw new Response("Not Found", { status: 404 });
}

/** The simulated checkout and portal: outside production, and never once Stripe is configured. */
export function requireSimulatedBilling(context: AppLoadContext) {
  requireDevelopment(context);
  if (context.env.STRIPE_SECRET_KEY) throw new Response("Not Found", { status: 404 });
}

/**
 * A write of a stand-in (the DNS or web stand-in) that failed: logged (with the request id) and
 * answered in JSON as the stand-in's other refusals are, never the generic error page.
 */
export async function standInWrite<T>(write: () => Promise<T>): Promise<T | Response> {
  try {
    return await write();
  } catch (error) {
    log("error", "stand-in write failed", { error: errorSummary(error) });
    return Response.json({ error: "The stand-in could not store that. Try again." }, { status: 503 });
  }
}
