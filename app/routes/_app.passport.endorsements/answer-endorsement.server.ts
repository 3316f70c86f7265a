import { z } from "zod";
import { answerEndorsement } from "#app/services/endorsements.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = (intent: "show-endorsement" | "hide-endorsement") =>
  z.object({ intent: z.literal(intent), endorsementId: z.uuid() });
const showSchema = schema("show-endorsement");
const hideSchema = schema("hide-endorsement");

/** 'Show': the endorsement appears on the owner's public passport (decision 072). */
export const showEndorsementIntent = defineIntent<Viewer, typeof showSchema>({
  schema: showSchema,
  failureTitle: "Error showing endorsement",
  async run({ endorsementId }, { context, viewer }) {
    await answerEndorsement(context, viewer, { id: endorsementId, status: "shown" });
    return { toast: { title: "Endorsement shown", description: "It now appears on your public passport." } };
  },
});

/** 'Hide' (a new one) or 'Remove' (a shown one): it leaves the public passport; the endorser can't send it again. */
export const hideEndorsementIntent = defineIntent<Viewer, typeof hideSchema>({
  schema: hideSchema,
  failureTitle: "Error hiding endorsement",
  async run({ endorsementId }, { context, viewer }) {
    await answerEndorsement(context, viewer, { id: endorsementId, status: "hidden" });
    return { toast: { title: "Endorsement hidden", description: "It no longer appears on your public passport." } };
  },
});
