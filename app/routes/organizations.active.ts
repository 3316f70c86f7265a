import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { switchOrganization } from "#app/services/profiles.server.ts";
import { safeRedirectPath } from "#app/utils/cookies.server.ts";
import { withHttpErrors } from "#app/utils/form-reply.server.ts";
import { requireUser } from "#app/utils/session.server.ts";

const schema = z.object({ organizationId: z.uuid(), redirectTo: z.string().optional() });

// Switches the active organisation, kept server-side per user; only to one the user belongs to.
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const parsed = schema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw new Response("Invalid organisation", { status: 400 });
  await withHttpErrors(switchOrganization(context, user.id, parsed.data.organizationId));
  return redirect(safeRedirectPath(parsed.data.redirectTo, "/dashboard"));
}

export function loader() {
  return redirect("/dashboard");
}
