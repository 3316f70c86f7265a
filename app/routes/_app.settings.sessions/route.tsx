import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { Sessions, SESSIONS_PREFIX } from "#app/components/settings/sessions.tsx";
import { sessionsListPart } from "#app/services/sessions.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { runSettingsIntent } from "#app/utils/settings-section.server.ts";
import { runPart } from "#db/queries/batch-parts.ts";
import { PAGE_SIZES, pageRequestFrom } from "#db/queries/paging.ts";
import { signOutOtherSessionsIntent } from "./sign-out-other-sessions.server.ts";
import { signOutSessionIntent } from "./sign-out-session.server.ts";

// /settings/sessions: where the person is signed in, a page at a time, and signing them out (decision 058).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const page = pageRequestFrom(new URL(request.url).searchParams, SESSIONS_PREFIX, PAGE_SIZES.sessions);
  const sessions = await runPart(
    context.db,
    sessionsListPart(context, { userId: viewer.id, currentSessionId: viewer.sessionId, page }),
  );
  return { sessions: { ...sessions, now: Date.now() } };
}

const INTENTS = {
  "sign-out-session": signOutSessionIntent,
  "sign-out-other-sessions": signOutOtherSessionsIntent,
};

export const action = (args: ActionFunctionArgs) => runSettingsIntent(args, INTENTS, "/settings/sessions");

export default function SessionsSection() {
  const { sessions } = useLoaderData<typeof loader>();
  return <Sessions sessions={sessions} />;
}
