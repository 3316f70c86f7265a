import type { AppLoadContext } from "@remix-run/cloudflare";
import type { SignedInAccount } from "#app/services/accounts/account.server.ts";
import { pathOf } from "./log.server.ts";
import { clientNetwork } from "./rate-limit.server.ts";
import type { Viewer } from "./viewer.ts";

/** The signed-in person asking, as the accounts service takes them: plain values read from the request. */
export function signedInAccount({
  request,
  context,
  viewer,
}: {
  request: Request;
  context: AppLoadContext;
  viewer: Viewer;
}): SignedInAccount {
  return {
    userId: viewer.id,
    sessionId: viewer.sessionId,
    email: viewer.email,
    name: viewer.fullName,
    headers: request.headers,
    network: clientNetwork(request),
    route: pathOf(request),
    appUrl: context.env.APP_URL ?? new URL(request.url).origin,
  };
}
