import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirectWithToast, safeRedirectPath, type Toast } from "#app/utils/cookies.server.ts";
import { MEDIA_LIMITS, MEDIA_MESSAGES } from "#app/utils/media-limits.ts";
import { invalidatePassports } from "#app/utils/passport-cache.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { deleteMedia } from "#app/utils/media.server.ts";
import { mediaKeys, readUploadForm } from "#app/services/uploads.server.ts";
import { replaceIntroVideo, updateAvatar } from "#db/queries/profiles.ts";
import { errorSummary, UNEXPECTED_FAILURE } from "#app/utils/form-reply.server.ts";
import { log } from "#app/utils/log.server.ts";

// The owner's picture and introduction video, posted from the own passport, the public
// passport's profile dialog and Settings; each goes back where it came from.

export const loader = () => redirect("/settings");

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const bucket = context.cloudflare.env.MEDIA;
  const uploadId = crypto.randomUUID();
  const upload = await readUploadForm(request, bucket, {
    avatar: {
      image: MEDIA_LIMITS.image,
      invalidType: "Please upload an image file",
      key: mediaKeys.avatar(viewer.id),
      failureTitle: FAILURE_TITLES["upload-avatar"],
    },
    introVideo: {
      video: MEDIA_LIMITS.introVideo,
      invalidType: MEDIA_MESSAGES.invalidVideo,
      key: mediaKeys.intro(viewer.id, uploadId),
      failureTitle: FAILURE_TITLES["upload-intro-video"],
    },
    thumbnail: {
      image: MEDIA_LIMITS.image,
      invalidType: MEDIA_MESSAGES.invalidImage,
      key: mediaKeys.intro(viewer.id, uploadId),
      failureTitle: FAILURE_TITLES["upload-intro-video"],
    },
  });
  const intent = upload.fields.get("intent");
  const back = (toast: Toast) =>
    redirectWithToast(context.env, request, safeRedirectPath(upload.fields.get("redirectTo"), "/passport"), toast);
  const refuse = async (title: string, description: string) => {
    await upload.discard();
    return back({ title, description, variant: "destructive" });
  };

  // A refused file stops the reading, so the intent (sent last, by the button) may be unknown.
  if (upload.error) return refuse(upload.error.title, upload.error.description);

  // This route answers forms of other pages, so a failure goes back there as a flash toast.
  try {
    return await save();
  } catch (error) {
    if (error instanceof Response) throw error;
    const title = FAILURE_TITLES[String(intent)] ?? "Error";
    log("error", "action failed", { title, requestId: context.requestId, error: errorSummary(error) });
    return refuse(title, UNEXPECTED_FAILURE);
  }

  async function save() {
    if (intent === "upload-avatar") {
      const avatar = upload.files.get("avatar");
      if (!avatar) return refuse(MEDIA_MESSAGES.invalidTypeTitle, "Please upload an image file");
      await upload.keepOnly([avatar.url]);
      // Every picture has a key of its own, so caches never serve the old one; the old object goes.
      await upload.use(() => updateAvatar(context.db, viewer.id, avatar.url));
      await Promise.all([deleteMedia(bucket, [viewer.avatarUrl]), invalidatePassports(context.env, viewer.id)]);
      return back({ title: "Avatar updated", description: "Your profile picture has been updated successfully" });
    }

    if (intent === "upload-intro-video") {
      const video = upload.files.get("introVideo");
      if (!video) return refuse(MEDIA_MESSAGES.invalidTypeTitle, MEDIA_MESSAGES.invalidVideo);
      const thumbnail = upload.files.get("thumbnail") ?? null;
      await upload.keepOnly([video.url, thumbnail?.url ?? null]);
      const previous = await upload.use(() =>
        replaceIntroVideo(context.db, viewer.id, {
          introVideoUrl: video.url,
          introVideoThumbnailUrl: thumbnail?.url ?? null,
        }),
      );
      await Promise.all([
        deleteMedia(bucket, [previous?.introVideoUrl, previous?.introVideoThumbnailUrl]),
        invalidatePassports(context.env, viewer.id),
      ]);
      return back({ title: "Video uploaded", description: "Your introduction video has been updated." });
    }

    await upload.discard();
    if (intent === "remove-intro-video") {
      const previous = await replaceIntroVideo(context.db, viewer.id, {
        introVideoUrl: null,
        introVideoThumbnailUrl: null,
      });
      await Promise.all([
        deleteMedia(bucket, [previous?.introVideoUrl, previous?.introVideoThumbnailUrl]),
        invalidatePassports(context.env, viewer.id),
      ]);
      return back({ title: "Video removed", description: "Your introduction video has been removed." });
    }
    throw new Response("Unknown action", { status: 400 });
  }
}

/** The spec's title for each intent that failed unexpectedly. */
const FAILURE_TITLES: Record<string, string> = {
  "upload-avatar": "Error uploading avatar",
  "upload-intro-video": "Upload failed",
  "remove-intro-video": "Error",
};
