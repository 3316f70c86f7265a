import { Hono, type Context } from "hono";
import {
  answerCredential,
  answerNonce,
  answerOffer,
  answerToken,
  authorizationServerMetadata,
  issuerMetadata,
  OPENID4VCI_PATHS,
} from "#app/services/openid4vci.server.ts";
import { readCapped } from "#app/services/outside-web.server.ts";
import { OAuthRefusal, type OAuthErrorCode } from "#app/utils/domain-errors.server.ts";
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

/** The status of each OAuth error the endpoints answer. */
const ERROR_STATUS: Record<OAuthErrorCode, 400 | 401 | 404 | 410 | 429> = {
  slow_down: 429,
  not_found: 404,
  expired: 410,
  invalid_token: 401,
  invalid_request: 400,
  unsupported_grant_type: 400,
  invalid_grant: 400,
  invalid_credential_request: 400,
  unknown_credential_configuration: 400,
  invalid_proof: 400,
  invalid_nonce: 400,
};

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { ...CORS, "Content-Type": "application/json", ...headers } });

/** An OAuth refusal as OAuth answers it; a bad token also says so in `WWW-Authenticate` (RFC 6750). */
function refusal({ error, description }: OAuthRefusal) {
  const headers: Record<string, string> =
    error === "invalid_token"
      ? { "WWW-Authenticate": `Bearer error="invalid_token", error_description="${description}"` }
      : {};
  return json(ERROR_STATUS[error], { error, error_description: description }, headers);
}

const refuse = (error: OAuthErrorCode, description: string) => refusal(new OAuthRefusal(error, description));

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
const LOGGED: OAuthErrorCode[] = ["invalid_grant", "invalid_token", "invalid_proof", "invalid_nonce"];

/** The service's answer as JSON, or its refusal as OAuth answers it (logged when worth seeing). */
async function answered(c: Context<WorkerEnv>, work: () => Promise<unknown>) {
  try {
    return json(200, await work());
  } catch (error) {
    if (!(error instanceof OAuthRefusal)) throw error;
    if (LOGGED.includes(error.error))
      securityEvent("openid4vci.refused", {
        reason: `${error.error}: ${error.description}`,
        route: pathOf(c.req.raw),
        requestId: c.get("requestId"),
      });
    return refusal(error);
  }
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
    if (!OFFER_PATH.test(new URL(c.req.url).pathname)) return refuse("not_found", "No such credential offer.");
    const { id } = c.req.param();
    const network = clientNetwork(c.req.raw);
    return answered(c, () => answerOffer(c.get("loadContext"), { origin: issuingOf(c).origin, id, network }));
  })
  .post(OPENID4VCI_PATHS.token, async (c) => {
    if (!c.req.header("Content-Type")?.startsWith("application/x-www-form-urlencoded"))
      return refuse("invalid_request", "The token request is an application/x-www-form-urlencoded form.");
    const text = await boundedText(c.req.raw);
    if (text === null) return refuse("invalid_request", "The request is too large.");
    const form = new URLSearchParams(text);
    return answered(c, async () => {
      const token = await answerToken(c.get("loadContext"), { form, network: clientNetwork(c.req.raw) });
      return { access_token: token.accessToken, token_type: "Bearer", expires_in: token.expiresIn };
    });
  })
  .post(OPENID4VCI_PATHS.nonce, async (c) =>
    answered(c, async () => ({
      c_nonce: await answerNonce(c.get("loadContext"), { network: clientNetwork(c.req.raw) }),
    })),
  )
  .post(OPENID4VCI_PATHS.credential, async (c) => {
    const authorization = c.req.header("Authorization") ?? "";
    const accessToken = /^Bearer ([A-Za-z0-9_~+/.-]+=*)$/.exec(authorization)?.[1] ?? null;
    const text = await boundedText(c.req.raw);
    if (text === null) return refuse("invalid_credential_request", "The request is too large.");
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return refuse("invalid_credential_request", "The body must be JSON.");
    }
    const network = clientNetwork(c.req.raw);
    return answered(c, async () => {
      const credential = await answerCredential(c.get("loadContext"), issuingOf(c), { accessToken, body, network });
      return { credentials: [{ credential }] };
    });
  });
