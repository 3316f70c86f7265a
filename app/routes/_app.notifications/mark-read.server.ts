import { z } from "zod";
import { markNotificationsRead } from "#app/services/notifications.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { readAnswer } from "./read-answer.server.ts";

const schema = z.object({ intent: z.literal("mark-read"), id: z.uuid(), redirectTo: z.string().optional() });

/** One of the person's own notifications (another's id changes nothing). */
export const markReadIntent = defineIntent<{ id: string }, typeof schema>({
  schema,
  failureTitle: "Error",
  async run({ id, redirectTo }, { context, viewer }) {
    await markNotificationsRead(context, viewer.id, [id]);
    return readAnswer(redirectTo);
  },
});
