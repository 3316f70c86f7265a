import { z } from "zod";
import { setIntroVideo } from "#app/services/profiles.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("remove-intro-video") });

export const removeIntroVideoIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Error",
  async run(_, { context, viewer }) {
    await setIntroVideo(context, viewer.id, null);
    return { toast: { title: "Video removed", description: "Your introduction video has been removed." } };
  },
});
