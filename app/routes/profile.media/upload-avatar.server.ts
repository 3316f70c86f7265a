import { z } from "zod";
import { replaceAvatar } from "#app/services/profiles.server.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { MEDIA_MESSAGES } from "#app/utils/media-limits.ts";
import type { Viewer } from "#app/utils/viewer.ts";

export const AVATAR_FAILURE = "Error uploading avatar";
const schema = z.object({ intent: z.literal("upload-avatar") });

export const uploadAvatarIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: AVATAR_FAILURE,
  takesFiles: true,
  async run(_, { context, viewer, upload }) {
    const avatar = upload?.files.get("avatar");
    if (!upload || !avatar)
      throw new Refusal({ title: MEDIA_MESSAGES.invalidTypeTitle, description: "Please upload an image file" });
    await upload.keepOnly([avatar.url]);
    await upload.use(() => replaceAvatar(context, viewer, avatar));
    return { toast: { title: "Avatar updated", description: "Your profile picture has been updated successfully" } };
  },
});
