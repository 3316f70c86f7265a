import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { readResume } from "#app/services/data-export.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { withHttpErrors } from "#app/utils/form-reply.server.ts";

// GET /settings/resume.json: the signed-in person's passport as a JSON Resume file, downloaded.
// Read-only and same as what their public passport shows, so a plain link is enough.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const origin = context.env.APP_URL ?? new URL(request.url).origin;
  const resume = await withHttpErrors(readResume(context, viewer.id, origin));
  return new Response(JSON.stringify(resume, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": 'attachment; filename="resume.json"',
      "Cache-Control": "private, no-store",
    },
  });
}
