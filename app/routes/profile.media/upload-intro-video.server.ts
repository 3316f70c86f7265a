import { z } from "zod";
import { setIntroVideo } from "#app/services/profiles.server.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { MEDIA_MESSAGES } from "#app/utils/media-limits.ts";
import type { Viewer } from "#app/utils/viewer.ts";

export const INTRO_VIDEO_FAILURE = "Upload failed";
const schema = z.object({ intent: z.literal("upload-intro-video") });

/** The video with the browser's thumbnail of it, when the browser made one. */
export const uploadIntroVideoIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: INTRO_VIDEO_FAILURE,
  takesFiles: true,
  async run(_, { context, viewer, upload }) {
    const video = upload?.files.get("introVideo");
    if (!upload || !video)
      throw new Refusal({ title: MEDIA_MESSAGES.invalidTypeTitle, description: MEDIA_MESSAGES.invalidVideo });
    const thumbnail = upload.files.get("thumbnail") ?? null;
    await upload.keepOnly([video.url, thumbnail?.url ?? null]);
    await upload.use(() => setIntroVideo(context, viewer.id, { video, thumbnail }));
    return { toast: { title: "Video uploaded", description: "Your introduction video has been updated." } };
  },
});
