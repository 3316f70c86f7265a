import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { switchOrganization } from "#app/services/profiles.server.ts";
import { redirectWithToast, safeRedirectPath } from "#app/utils/cookies.server.ts";
import { errorSummary, UNEXPECTED_FAILURE, withHttpErrors } from "#app/utils/form-reply.server.ts";
import { log } from "#app/utils/log.server.ts";
import { requireUser } from "#app/utils/session.server.ts";

const schema = z.object({ organizationId: z.uuid(), redirectTo: z.string().optional() });

// Switches the active organisation, kept server-side per user; only to one the user belongs to.
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const parsed = schema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw new Response("Invalid organisation", { status: 400 });
  const back = safeRedirectPath(parsed.data.redirectTo, "/dashboard");
  try {
    await withHttpErrors(switchOrganization(context, user.id, parsed.data.organizationId));
  } catch (error) {
    if (error instanceof Response) throw error;
    // D1 failing: the person stays where they were and is told (issue 34's fault table).
    log("error", "action failed", { title: "Error", requestId: context.requestId, error: errorSummary(error) });
    return redirectWithToast(context.env, request, back, {
      title: "Error",
      description: UNEXPECTED_FAILURE,
      variant: "destructive",
    });
  }
  return redirect(back);
}

export function loader() {
  return redirect("/dashboard");
}
