import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirectWithToast } from "#app/utils/cookies.server.ts";
import { exportArchive, exportFileName, readPersonData } from "#app/services/data-export.server.ts";
import { consumeUserRateLimit, limitOrUnavailable } from "#app/utils/rate-limit.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { UNEXPECTED_FAILURE, withHttpErrors } from "#app/utils/form-reply.server.ts";

// POST /settings/export: "Download my data", the signed-in person's own data as one ZIP. A POST
// (from Settings' form, same origin only) because it is rate limited: a link could be followed
// by a prefetch or another site and spend the person's exports.

export const EXPORT_LIMIT_MESSAGE = "You can download your data 3 times an hour. Please try again later.";

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const within = await limitOrUnavailable(consumeUserRateLimit(context.db, viewer.id, "data-export"));
  if (within === null) {
    return redirectWithToast(context.env, request, "/settings/data", {
      title: "Error",
      description: UNEXPECTED_FAILURE,
      variant: "destructive",
    });
  }
  if (!within) {
    return redirectWithToast(context.env, request, "/settings/data", {
      title: "Too many downloads",
      description: EXPORT_LIMIT_MESSAGE,
      variant: "destructive",
    });
  }
  const origin = context.env.APP_URL ?? new URL(request.url).origin;
  const data = await withHttpErrors(readPersonData(context, viewer.id));
  return new Response(exportArchive(context, data, origin), {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${exportFileName()}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
