import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { safeRedirectPath } from "#app/utils/cookies.server.ts";
import { runIntent } from "#app/utils/intent.server.ts";
import { MAX_IMAGE_SIDE, MEDIA_LIMITS, MEDIA_MESSAGES } from "#app/utils/media-limits.ts";
import { uploadAllowance } from "#app/services/storage.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { mediaKeys, readUploadForm } from "#app/utils/uploads.server.ts";
import { AVATAR_FAILURE, uploadAvatarIntent } from "./upload-avatar.server.ts";
import { INTRO_VIDEO_FAILURE, uploadIntroVideoIntent } from "./upload-intro-video.server.ts";
import { removeIntroVideoIntent } from "./remove-intro-video.server.ts";

// The owner's picture and introduction video, posted from the own passport, the public
// passport's profile dialog and Settings; each goes back where it came from, failures included
// (as a flash toast: the page that showed the form is not this route).

export const loader = () => redirect("/settings");

const INTENTS = {
  "upload-avatar": uploadAvatarIntent,
  "upload-intro-video": uploadIntroVideoIntent,
  "remove-intro-video": removeIntroVideoIntent,
};

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const uploadId = crypto.randomUUID();
  const rules = {
    avatar: {
      image: MEDIA_LIMITS.image,
      invalidType: "Please upload an image file",
      key: mediaKeys.avatar(viewer.id),
      failureTitle: AVATAR_FAILURE,
      // The link preview card draws it (decision 074).
      maxImageSide: MAX_IMAGE_SIDE,
    },
    introVideo: {
      video: MEDIA_LIMITS.introVideo,
      invalidType: MEDIA_MESSAGES.invalidVideo,
      key: mediaKeys.intro(viewer.id, uploadId),
      failureTitle: INTRO_VIDEO_FAILURE,
    },
    thumbnail: {
      image: MEDIA_LIMITS.image,
      invalidType: MEDIA_MESSAGES.invalidImage,
      key: mediaKeys.intro(viewer.id, uploadId),
      failureTitle: INTRO_VIDEO_FAILURE,
    },
  };
  // The person's own files: their upload rate and storage quota hold (decision 074).
  const allowance = uploadAllowance(context, viewer.id, { counted: true });
  const upload = await readUploadForm(request, context.cloudflare.env.MEDIA, rules, allowance, context.requestId);
  const back = safeRedirectPath(upload.fields.get("redirectTo"), "/passport");
  return runIntent({ request, context }, INTENTS, {
    viewer,
    fields: upload.fields,
    upload,
    back,
    failuresGoBack: true,
  });
}
