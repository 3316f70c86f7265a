import { NotFound } from "#app/utils/domain-errors.server.ts";
import { securityEvent } from "#app/utils/log.server.ts";
import { closeNotificationSockets } from "#app/utils/person-hub.server.ts";
import { deviceLabel } from "#app/utils/session-devices.server.ts";
import type { PageRequest } from "#db/queries/paging.ts";
import { deleteOtherSessions, deleteSessionOf, sessionsPagePart } from "#db/queries/sessions.ts";
import type { ServiceContext } from "./context.server.ts";

// A person's signed-in browsers, as Settings shows and ends them (decision 058). A session that
// ends here has its notification sockets closed with it.

/**
 * A page of the person's live sessions, each named by its device, the current one marked: a part
 * of the page's batch.
 */
export function sessionsListPart(
  context: Pick<ServiceContext, "db">,
  { userId, currentSessionId, page }: { userId: string; currentSessionId: string; page: PageRequest },
) {
  const part = sessionsPagePart(context.db, userId, page);
  return {
    statements: part.statements,
    read: (results: readonly unknown[]) => {
      const sessions = part.read(results);
      return {
        ...sessions,
        items: sessions.items.map((session) => ({
          id: session.id,
          device: deviceLabel(session.userAgent),
          place: session.place,
          lastSeenAt: session.updatedAt.getTime(),
          current: session.id === currentSessionId,
        })),
      };
    },
  };
}

/** Ends one of the person's sessions (another browser of theirs). Another person's session, or none: NotFound. */
export async function endSession(
  context: ServiceContext,
  { userId, sessionId }: { userId: string; sessionId: string },
) {
  if (!(await deleteSessionOf(context.db, { userId, sessionId }))) throw new NotFound();
  securityEvent("session.ended", { reason: "signed out from another session", userId, requestId: context.requestId });
  context.cloudflare.ctx.waitUntil(closeNotificationSockets(context, userId, { sessions: [sessionId] }));
}

/** Ends every session of the person but the one asking; says how many ended. */
export async function endOtherSessions(
  context: ServiceContext,
  { userId, keepSessionId }: { userId: string; keepSessionId: string },
) {
  const ended = await deleteOtherSessions(context.db, { userId, keepSessionId });
  securityEvent("session.ended", { reason: "signed out everywhere else", userId, ended, requestId: context.requestId });
  context.cloudflare.ctx.waitUntil(closeNotificationSockets(context, userId, { except: keepSessionId }));
  return ended;
}
