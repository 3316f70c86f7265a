import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { originalFile } from "#app/services/imports/imported-credentials.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";

/**
 * The original file of an imported credential (decision 069), offered back to its owner only:
 * anyone else, and an entry that is not an import, get 404. Sent as a download, never rendered.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const file = await originalFile(context, viewer.id, params.achievementId ?? "");
  if (!file) throw new Response("Not found", { status: 404 });
  const name = file.fileName.replace(/[^\w.-]+/g, "_") || "credential";
  return new Response(file.object.body, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${name}"`,
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    },
  });
}
