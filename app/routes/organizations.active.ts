import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { safeRedirectPath } from "#app/utils/cookies.server.ts";
import { forbidden } from "#app/utils/denial.server.ts";
import { requireUser } from "#app/utils/session.server.ts";
import { findMembership } from "#db/queries/memberships/authorization.ts";
import { setActiveOrganization } from "#db/queries/profiles.ts";

const schema = z.object({ organizationId: z.uuid(), redirectTo: z.string().optional() });

// Switches the active organisation, kept server-side per user; only to one the user belongs to.
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const parsed = schema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw new Response("Invalid organisation", { status: 400 });
  // Any organisation the user is an approved member of, wherever it falls in the switcher's pages.
  const membership = await findMembership(context.db, { userId: user.id, organizationId: parsed.data.organizationId });
  if (membership?.status !== "approved") {
    throw forbidden(context, "not a member of the organisation", {
      userId: user.id,
      organizationId: parsed.data.organizationId,
    });
  }
  await setActiveOrganization(context.db, user.id, parsed.data.organizationId);
  return redirect(safeRedirectPath(parsed.data.redirectTo, "/dashboard"));
}

export function loader() {
  return redirect("/dashboard");
}
