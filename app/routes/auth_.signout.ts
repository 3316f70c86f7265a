import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { signOutHeaders } from "#app/utils/session.server.ts";

// Sign-out is a POST (a link could be followed by anyone's page); it goes to /.
export async function action({ request, context }: ActionFunctionArgs) {
  return redirect("/", { headers: await signOutHeaders(request, context) });
}

export function loader() {
  return redirect("/");
}
