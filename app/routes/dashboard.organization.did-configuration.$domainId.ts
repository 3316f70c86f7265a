import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { didConfigurationOf } from "#app/services/organization-domains.server.ts";
import { withHttpErrors } from "#app/utils/form-reply.server.ts";
import { requireViewer, sendHeldBackAdmin } from "#app/utils/session.server.ts";

const idSchema = z.uuid();

/**
 * A verified domain's did-configuration.json, as a download for the admin of the active
 * organisation to publish at https://{domain}/.well-known/did-configuration.json.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  await sendHeldBackAdmin(request, context, viewer);
  const id = idSchema.safeParse(params.domainId);
  if (!id.success) throw new Response("Not Found", { status: 404 });
  const configuration = await withHttpErrors(
    didConfigurationOf(context, viewer.id, viewer.activeOrganization?.id ?? null, id.data),
  );
  return new Response(JSON.stringify(configuration, null, 2), {
    headers: {
      "Content-Type": "application/json",
      "Content-Disposition": 'attachment; filename="did-configuration.json"',
      "Cache-Control": "private, no-store",
    },
  });
}
