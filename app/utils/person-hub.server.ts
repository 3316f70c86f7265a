import type { HubMessage, SocketScope } from "./hub-message.ts";
import { log } from "./log.server.ts";

// The transport to each person's hub (a Durable Object: their open notification sockets and the
// bookmark of their last passport change). What to tell it, and when, is the business of the
// notifications service and the passport cache.

/** What reaching the hubs takes: the binding, and a way to finish after the answer. */
type HubContext = { cloudflare: { env: Pick<Env, "PERSON_HUB">; ctx: Pick<ExecutionContext, "waitUntil"> } };

/** The person's hub (one per person, named by their id). */
export const hubStub = (hubs: Env["PERSON_HUB"], userId: string) => hubs.get(hubs.idFromName(userId.toLowerCase()));
const hubOf = (context: HubContext, userId: string) => hubStub(context.cloudflare.env.PERSON_HUB, userId);

/** Logs each failed push or close; the write that caused it has already happened. */
function logHubFailures(results: PromiseSettledResult<unknown>[]) {
  for (const result of results) {
    if (result.status === "rejected") log("error", "notification push failed", { error: String(result.reason) });
  }
}

/** Sends each message to its user's open tabs, after the response; never throws. */
export function pushToHubs(context: HubContext, messages: { userId: string; message: HubMessage }[]) {
  if (messages.length === 0) return;
  context.cloudflare.ctx.waitUntil(
    Promise.allSettled(messages.map(({ userId, message }) => hubOf(context, userId).broadcast(message))).then(
      logHubFailures,
    ),
  );
}

/**
 * Closes the user's open notification sockets whose sessions ended (`scope`; all of them unless
 * told: a password reset, archive, purge), so a tab whose session ended stops receiving that
 * person's notifications. A failure is logged, never raised: the action it follows has already
 * happened. Sessions that end unseen (expiry, idleness) are closed by the hub's own alarm.
 */
export async function closeNotificationSockets(
  context: HubContext,
  userId: string,
  scope: SocketScope = { all: true },
) {
  logHubFailures(await Promise.allSettled([hubOf(context, userId).closeSockets(scope)]));
}

/**
 * Records, in the user's hub, the D1 bookmark a change of their passport reached (decision 077),
 * for every data centre's cache to compare renders with (`lastPassportChange`).
 */
export function recordPassportChange(hubs: Env["PERSON_HUB"], userId: string, bookmark: string) {
  return hubStub(hubs, userId).recordPassportChange(bookmark);
}

/** The D1 bookmark of the user's last passport change, from their hub. */
export function lastPassportChange(hubs: Env["PERSON_HUB"], userId: string) {
  return hubStub(hubs, userId).passportChange();
}
