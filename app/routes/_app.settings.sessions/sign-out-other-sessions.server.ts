import { z } from "zod";
import { endOtherSessions } from "#app/services/sessions.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("sign-out-other-sessions") });
const TITLE = "Error signing out";

/** 'Sign out everywhere else': every session of the person but this browser's ends (decision 058). */
export const signOutOtherSessionsIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: TITLE,
  async run(_, { context, viewer }) {
    const ended = await endOtherSessions(context, { userId: viewer.id, keepSessionId: viewer.sessionId });
    return {
      toast: {
        title: "Signed out everywhere else",
        description: ended === 1 ? "1 other session has ended." : `${ended} other sessions have ended.`,
      },
    };
  },
});
