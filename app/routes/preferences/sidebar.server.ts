import { z } from "zod";
import { setSidebarOpen } from "#app/utils/cookies.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { preferenceAnswer } from "./preference-answer.server.ts";

const schema = z.object({ intent: z.literal("sidebar"), value: z.enum(["open", "collapsed"]) });

export const sidebarIntent = defineIntent<null, typeof schema>({
  schema,
  failureTitle: "Error",
  run: async ({ value }, { request, fields }) =>
    preferenceAnswer(fields, await setSidebarOpen(request, value === "open")),
});
