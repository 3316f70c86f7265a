import { Hono, type Context } from "hono";
import {
  answerCredential,
  answerNonce,
  answerOffer,
  answerToken,
  authorizationServerMetadata,
  issuerMetadata,
  OPENID4VCI_PATHS,
  type Answer,
} from "#app/services/openid4vci.server.ts";
import { readCapped } from "#app/services/outside-web.server.ts";
import { pathOf, securityEvent } from "#app/utils/log.server.ts";
import { clientNetwork } from "#app/utils/rate-limit.server.ts";
import type { WorkerEnv } from "../types.ts";
import { issuingOf } from "./credentials.ts";

/**
 * OpenID for Verifiable Credential Issuance 1.0, pre-authorised code flow (decision 065,
 * docs/security.md "OpenID4VCI (issue 31)"): the metadata, the offer behind a
 * `credential_offer_uri`, and the token, nonce and credential endpoints. A wallet calls them from
 * anywhere (CORS *); no cookie is read or set: the pre-authorised code (with its transaction
 * code), the access token and the proof over our nonce are the whole authentication, as the
 * cross-site check's exemption relies on.
 */

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const OFFER_PATH = new RegExp(`^${OPENID4VCI_PATHS.offer}/${UUID}$`);
/** The endpoints a wallet POSTs to from anywhere (security.ts exempts them from the cross-site check). */
export const isOpenid4vciPost = (pathname: string) =>
  pathname === OPENID4VCI_PATHS.token ||
  pathname === OPENID4VCI_PATHS.nonce ||
  pathname === OPENID4VCI_PATHS.credential;
/** A token request is a short form; a credential request carries one proof JWT (about 1 kB). */
const MAX_BODY_BYTES = 16 * 1024;

const CORS = { "Access-Control-Allow-Origin": "*", "Cache-Control": "no-store" };

function reply({ status, ...answer }: Answer) {
  const headers: Record<string, string> = { ...CORS, "Content-Type": "application/json" };
  if ("authenticate" in answer && answer.authenticate)
    headers["WWW-Authenticate"] = `Bearer error="invalid_token", error_description="${answer.body.error_description}"`;
  return new Response(JSON.stringify(answer.body), { status, headers });
}

const badRequest = (error: string, description: string) =>
  reply({ status: 400, body: { error, error_description: description } });

/** The body as text, or null once it passes the cap (the rest is never read). */
async function boundedText(request: Request) {
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_BODY_BYTES) return null;
  const bytes = await readCapped(request.body, MAX_BODY_BYTES);
  return bytes && new TextDecoder().decode(bytes);
}

function preflight(c: Context<WorkerEnv>) {
  for (const [name, value] of Object.entries({
    ...CORS,
    "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
    "Access-Control-Allow-Headers": "Content-Type, Authorization, DPoP",
    "Access-Control-Max-Age": "86400",
  }))
    c.header(name, value);
  return c.body(null, 204);
}

/** Metadata is the same for every caller and changes only with a deploy: cached an hour. */
const metadata = (body: unknown) =>
  new Response(JSON.stringify(body), {
    headers: {
      "Access-Control-Allow-Origin": "*",
      "Content-Type": "application/json",
      "Cache-Control": "public, max-age=3600",
    },
  });

/** Refusals worth seeing: a spent or guessed code, a token replayed, a proof that does not hold. */
function logRefusal(c: Context<WorkerEnv>, answer: Answer) {
  if (answer.status === 200 || answer.status === 429 || answer.status === 404) return;
  const { error, error_description } = answer.body;
  if (!["invalid_grant", "invalid_token", "invalid_proof", "invalid_nonce"].includes(error)) return;
  securityEvent("openid4vci.refused", {
    reason: `${error}: ${error_description}`,
    route: pathOf(c.req.raw),
    requestId: c.get("requestId"),
  });
}

export const openid4vciRoutes = new Hono<WorkerEnv>()
  .get("/.well-known/openid-credential-issuer", (c) => metadata(issuerMetadata(issuingOf(c).origin)))
  .get("/.well-known/oauth-authorization-server", (c) => metadata(authorizationServerMetadata(issuingOf(c).origin)))
  .options("/.well-known/openid-credential-issuer", preflight)
  .options("/.well-known/oauth-authorization-server", preflight)
  .options(`${OPENID4VCI_PATHS.offer}/:id`, preflight)
  .options(OPENID4VCI_PATHS.token, preflight)
  .options(OPENID4VCI_PATHS.nonce, preflight)
  .options(OPENID4VCI_PATHS.credential, preflight)
  .get(`${OPENID4VCI_PATHS.offer}/:id`, async (c) => {
    if (!OFFER_PATH.test(new URL(c.req.url).pathname))
      return reply({ status: 404, body: { error: "not_found", error_description: "No such credential offer." } });
    const { db } = c.get("loadContext");
    return reply(await answerOffer(db, issuingOf(c).origin, c.req.param("id"), clientNetwork(c.req.raw)));
  })
  .post(OPENID4VCI_PATHS.token, async (c) => {
    if (!c.req.header("Content-Type")?.startsWith("application/x-www-form-urlencoded"))
      return badRequest("invalid_request", "The token request is an application/x-www-form-urlencoded form.");
    const text = await boundedText(c.req.raw);
    if (text === null) return badRequest("invalid_request", "The request is too large.");
    const form = new URLSearchParams(text);
    const answer = await answerToken(c.get("loadContext").db, form, clientNetwork(c.req.raw));
    logRefusal(c, answer);
    return reply(answer);
  })
  .post(OPENID4VCI_PATHS.nonce, async (c) =>
    reply(await answerNonce(c.get("loadContext").db, clientNetwork(c.req.raw))),
  )
  .post(OPENID4VCI_PATHS.credential, async (c) => {
    const authorization = c.req.header("Authorization") ?? "";
    const accessToken = /^Bearer ([A-Za-z0-9_~+/.-]+=*)$/.exec(authorization)?.[1] ?? null;
    const text = await boundedText(c.req.raw);
    if (text === null) return badRequest("invalid_credential_request", "The request is too large.");
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return badRequest("invalid_credential_request", "The body must be JSON.");
    }
    const answer = await answerCredential(issuingOf(c), { accessToken, body, network: clientNetwork(c.req.raw) });
    logRefusal(c, answer);
    return reply(answer);
  });
