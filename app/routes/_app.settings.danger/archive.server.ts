import { redirect } from "@remix-run/cloudflare";
import { z } from "zod";
import { archiveRefusal, archiveUser } from "#app/services/account-purge.server.ts";
import { ARCHIVE_GRACE_DAYS } from "#app/utils/constants.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("archive") });
const TITLE = "Error archiving account";

export const archiveIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: TITLE,
  hideFields: ["password"],
  async run(_, { context, viewer }) {
    if (viewer.archivedAt) return redirect("/settings");
    const refusal = await archiveRefusal(context, viewer.id);
    if (refusal) return { toast: { title: TITLE, description: refusal, variant: "destructive" } };
    await archiveUser(context, viewer.id, viewer.sessionId);
    // ?archived=now: the notice signs the user out after 2 seconds (a later visit offers the choice).
    return {
      toast: {
        title: "Account Archived",
        description: `Your account is hidden. Sign in within ${ARCHIVE_GRACE_DAYS} days to reactivate it.`,
      },
      redirectTo: "/settings?archived=now",
    };
  },
});
