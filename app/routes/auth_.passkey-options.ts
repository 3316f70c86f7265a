import { UNEXPECTED_FAILURE } from "#app/utils/form-reply.server.ts";
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { passkeySignInOptions } from "#app/services/accounts/passkey-ceremonies.server.ts";
import { consumeRateLimit, limitOrUnavailable, RATE_LIMIT_MESSAGE } from "#app/utils/rate-limit.server.ts";
import { tooMany } from "./auth/form.server.ts";

/**
 * POST /auth/passkey-options: the WebAuthn options for a passkey sign-in (docs/decisions/061),
 * their challenge kept 5 minutes against a cookie of this browser. Anyone may ask (nobody is
 * signed in yet), from this site only (the Worker refuses other origins' POSTs), and a network
 * at most 60 times a minute. The options name no account (no session is read): any passkey of
 * this site may answer, and the answer says nothing about who has one.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const within = await limitOrUnavailable(consumeRateLimit(context.db, request, "passkey-options"));
  if (within === null) return Response.json({ message: UNEXPECTED_FAILURE }, { status: 500 });
  if (!within) {
    tooMany(request, context, "passkey-options", RATE_LIMIT_MESSAGE);
    return Response.json({ message: RATE_LIMIT_MESSAGE }, { status: 429 });
  }
  const { status, options, cookies } = await passkeySignInOptions(context);
  return Response.json(options, { status, headers: cookies });
}
