import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirectWithToast } from "#app/utils/cookies.server.ts";
import { errorSummary, UNEXPECTED_FAILURE } from "#app/utils/form-reply.server.ts";
import { log } from "#app/utils/log.server.ts";
import { signOutHeaders } from "#app/utils/session.server.ts";

// Sign-out is a POST (a link could be followed by anyone's page); it goes to /.
export async function action({ request, context }: ActionFunctionArgs) {
  try {
    return redirect("/", { headers: await signOutHeaders(request, context) });
  } catch (error) {
    if (error instanceof Response) throw error;
    // The session could not be ended (D1 failing): the person is told, still signed in, and may
    // try again, rather than shown the generic error page (issue 34's fault table).
    log("error", "sign-out failed", { requestId: context.requestId, error: errorSummary(error) });
    return redirectWithToast(context.env, request, "/", {
      title: "Error signing out",
      description: UNEXPECTED_FAILURE,
      variant: "destructive",
    });
  }
}

export function loader() {
  return redirect("/");
}
