import { z } from "zod";
import { markNotificationsRead } from "#app/services/notifications.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { readAnswer } from "./read-answer.server.ts";

const schema = z.object({ intent: z.literal("mark-all-read"), redirectTo: z.string().optional() });

export const markAllReadIntent = defineIntent<{ id: string }, typeof schema>({
  schema,
  failureTitle: "Error",
  async run({ redirectTo }, { context, viewer }) {
    await markNotificationsRead(context, viewer.id, "all");
    return readAnswer(redirectTo);
  },
});
