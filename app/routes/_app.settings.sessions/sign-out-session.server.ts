import { redirect } from "@remix-run/cloudflare";
import { z } from "zod";
import { endSession } from "#app/services/sessions.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { signOutHeaders } from "#app/utils/session.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("sign-out-session"), sessionId: z.string().min(1).max(64) });
const TITLE = "Error signing out";

/**
 * 'Sign out' beside one of the person's other sessions (decision 058). Only their own: the id of
 * anyone else's session, or of one already ended, is not found (404) and ends nothing. This
 * browser's own session is signed out as the sidebar's 'Sign Out' does it.
 */
export const signOutSessionIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: TITLE,
  async run({ sessionId }, { request, context, viewer }) {
    if (sessionId === viewer.sessionId) return redirect("/", { headers: await signOutHeaders(request, context) });
    await endSession(context, { userId: viewer.id, sessionId });
    return { toast: { title: "Signed out", description: "That session has ended." } };
  },
});
