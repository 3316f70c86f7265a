import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireDevelopment } from "#app/utils/dev-only.server.ts";
import { listDevMail } from "#db/queries/dev-mail.ts";

// GET /dev/mail.json?to=ADDRESS: the dev mailbox as JSON, newest first.
export async function loader({ request, context }: LoaderFunctionArgs) {
  requireDevelopment(context);
  const to = new URL(request.url).searchParams.get("to");
  const mail = await listDevMail(context.db, to);
  return Response.json(mail.map((item) => ({ ...item, createdAt: item.createdAt.toISOString() })));
}
