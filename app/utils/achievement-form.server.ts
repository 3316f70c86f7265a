import { parseWithZod } from "@conform-to/zod/v4";
import type { AppLoadContext } from "@remix-run/cloudflare";
import type { z } from "zod";
import { giveAchievementSchema, selfAchievementSchema } from "./achievement-schemas.ts";
import { redirectWithToast } from "./cookies.server.ts";
import { replyFailure } from "./form-reply.server.ts";
import { defineIntent, type Intent, type IntentArgs } from "./intent.server.ts";
import { isVideoUrl } from "./media-limits.ts";
import { requireViewer } from "./session.server.ts";
import type { Toast } from "./toast-message.ts";
import { achievementFileRules, isUpload, readUploadForm, type FileRule, type UploadForm } from "./uploads.server.ts";
import type { UploadAllowance } from "./storage-quota.server.ts";

// The Add Achievement form, as the dashboard (an admin gives) and the own passport (a person adds
// their own) post it: a multipart body whose files stream to R2 before the fields are checked.

/**
 * Reads a form that may be the Add Achievement form, its files streamed to R2 under `key`, within
 * what the uploader may store (`allowance`, decision 074).
 */
export function readAchievementUpload(
  request: Request,
  context: AppLoadContext,
  key: FileRule["key"],
  allowance: UploadAllowance,
) {
  return readUploadForm(request, context.cloudflare.env.MEDIA, achievementFileRules(key), allowance, context.requestId);
}

/**
 * The media an achievement form brought: an uploaded picture, or a video with its cover (or the
 * browser's thumbnail when there is no cover), or else a link. Stored files left unused go.
 */
async function achievementMedia(upload: UploadForm | null, mediaUrl: string | undefined) {
  const { media, cover, thumbnail } = Object.fromEntries(upload?.files ?? []);
  let chosen: SavedMedia;
  if (media?.type.kind === "video") chosen = { videoUrl: media.url, imageUrl: (cover ?? thumbnail)?.url ?? null };
  else if (media) chosen = { imageUrl: media.url, videoUrl: null };
  else if (mediaUrl)
    chosen = isVideoUrl(mediaUrl) ? { videoUrl: mediaUrl, imageUrl: null } : { imageUrl: mediaUrl, videoUrl: null };
  else chosen = { imageUrl: null, videoUrl: null };
  await upload?.keepOnly([chosen.imageUrl, chosen.videoUrl]);
  return chosen;
}

/** What the Add Achievement forms' schemas give: the achievement, with the form's own fields. */
type AchievementSchema = z.ZodType<AchievementFormValue>;
type AchievementFormValue = { intent: string; mediaUrl?: string; media?: File; cover?: File; timeZone?: string };

/**
 * The intent of an Add Achievement form: validated by `schema`, its media chosen and kept, then
 * saved by `save` (a service), whose failure deletes the files it brought. The form's id comes
 * first in its body, so it is known even when a file further on is refused.
 */
export function achievementIntent<Viewer, Schema extends AchievementSchema>({
  schema,
  failureTitle,
  guard,
  save,
}: {
  schema: Schema;
  failureTitle: string;
  guard?: Intent<Viewer, Schema>["guard"];
  save: (achievement: Omit<z.output<Schema>, FormOnly> & SavedMedia, args: IntentArgs<Viewer>) => Promise<Toast>;
}) {
  return defineIntent<Viewer, Schema>({
    schema,
    failureTitle,
    guard,
    formId: (fields) => String(fields.get("formId") ?? ""),
    takesFiles: true,
    async run(value, args) {
      const { intent: _, media: _file, cover: _cover, mediaUrl, timeZone: _zone, ...achievement } = value;
      const media = await achievementMedia(args.upload, mediaUrl);
      const saved = () => save({ ...achievement, ...media }, args);
      return { toast: await (args.upload ? args.upload.use(saved) : saved()) };
    },
  });
}
/** The form's own fields, which are not the achievement's. */
type FormOnly = "intent" | "media" | "cover" | "mediaUrl" | "timeZone";
type SavedMedia = { imageUrl: string | null; videoUrl: string | null };

const AUTHENTICATION_REQUIRED = {
  title: "Authentication required",
  description: "Please sign in to add achievements.",
} as const;

/**
 * The signed-in viewer of a page with an Add Achievement dialog. When the session has expired
 * by the time the dialog is submitted, the spec's 'Authentication required' toast explains it:
 * with JavaScript the page stays as it is (single fetch does not revalidate after a 4xx), the
 * dialog open with what was typed; a plain form post goes on to sign in with that toast. No file
 * of a signed-out caller is stored: only the text fields before the first file are read.
 */
export async function requireViewerForAchievementForm(request: Request, context: AppLoadContext) {
  try {
    return await requireViewer(request, context);
  } catch (error) {
    const signIn = error instanceof Response ? error.headers.get("Location") : null;
    if (!signIn?.startsWith("/auth?") || !isUpload(request)) throw error;
    const upload = await readUploadForm(request, context.cloudflare.env.MEDIA, {});
    await upload.discard();
    const intent = upload.fields.get("intent");
    const schema =
      intent === "give-achievement"
        ? giveAchievementSchema
        : intent === "add-self-achievement"
          ? selfAchievementSchema
          : null;
    if (!schema) throw error;
    // A document navigation (no script, or an old browser) cannot keep the page: sign in first.
    if ((request.headers.get("Sec-Fetch-Mode") ?? "navigate") === "navigate") {
      throw await redirectWithToast(context.env, request, signIn, AUTHENTICATION_REQUIRED);
    }
    throw replyFailure({
      formId: String(upload.fields.get("formId") ?? ""),
      submission: parseWithZod(upload.fields, { schema }),
      toast: AUTHENTICATION_REQUIRED,
      status: 401,
    });
  }
}
