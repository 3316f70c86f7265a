import type { Db } from "#db/client.ts";
import { newInviteCode } from "#db/schema.ts";
import {
  credentialRequestQueries,
  offerQuery,
  openCredentialOffer,
  redeemPreAuthorizedCode,
  spendTokenAndNonce,
  storeNonce,
} from "#db/queries/openid4vci.ts";
import { OAuthRefusal } from "#app/utils/domain-errors.server.ts";
import { countAttempt, withinLimit, type RateLimitedAction } from "#app/utils/rate-limit.server.ts";
import { tokenHashOf } from "#app/utils/token-hash.server.ts";
import type { ServiceContext } from "./context.server.ts";
import { OB_CONTEXT, VC_V2_CONTEXT } from "./credentials/contexts.server.ts";
import type { JsonObject } from "./credentials/data-integrity.server.ts";
import type { Issuing } from "./credentials/issuer.server.ts";
import { PROOF_ALGORITHMS, verifyProofJwt } from "./credentials/proof-jwt.server.ts";
import { reissueStored } from "./credentials/reissue.server.ts";

/**
 * OpenID for Verifiable Credential Issuance 1.0, pre-authorised code flow (issue 31, decision
 * 065): 'Add to wallet' also makes a credential offer; a wallet reads it, trades its code (and
 * the 6 digits shown to the person) for an access token, asks for a c_nonce, and gets the
 * credential reissued to the key its proof was signed with. Refusals are thrown as `OAuthRefusal`s,
 * which the route answers as OAuth error JSON.
 */

export const OFFER_MINUTES = 10;
export const TOKEN_SECONDS = 5 * 60;
export const NONCE_SECONDS = 5 * 60;
export const PRE_AUTHORIZED_GRANT = "urn:ietf:params:oauth:grant-type:pre-authorized_code";
/** The one credential configuration: the Open Badges 3.0 credential, as a Data Integrity VC. */
export const CONFIGURATION_ID = "OpenBadgeCredential";

export const OPENID4VCI_PATHS = {
  offer: "/openid4vci/offers",
  token: "/openid4vci/token",
  nonce: "/openid4vci/nonce",
  credential: "/openid4vci/credential",
} as const;

/** `/.well-known/openid-credential-issuer` (OpenID4VCI 1.0, section 12.2). */
export function issuerMetadata(origin: string) {
  return {
    credential_issuer: origin,
    credential_endpoint: `${origin}${OPENID4VCI_PATHS.credential}`,
    nonce_endpoint: `${origin}${OPENID4VCI_PATHS.nonce}`,
    display: [{ name: "Career Passport", locale: "en" }],
    credential_configurations_supported: {
      [CONFIGURATION_ID]: {
        format: "ldp_vc",
        credential_definition: {
          "@context": [VC_V2_CONTEXT, OB_CONTEXT],
          type: ["VerifiableCredential", "OpenBadgeCredential"],
        },
        cryptographic_binding_methods_supported: ["did:key", "jwk"],
        credential_signing_alg_values_supported: ["eddsa-rdfc-2022"],
        proof_types_supported: { jwt: { proof_signing_alg_values_supported: [...PROOF_ALGORITHMS] } },
        credential_metadata: {
          display: [
            {
              name: "Open Badge",
              locale: "en",
              description: "An achievement recognised on Career Passport, as an Open Badges 3.0 credential.",
            },
          ],
        },
      },
    },
  };
}

/** `/.well-known/oauth-authorization-server` (RFC 8414): the issuer is its own authorisation server. */
export function authorizationServerMetadata(origin: string) {
  return {
    issuer: origin,
    token_endpoint: `${origin}${OPENID4VCI_PATHS.token}`,
    grant_types_supported: [PRE_AUTHORIZED_GRANT],
    token_endpoint_auth_methods_supported: ["none"],
    response_types_supported: [],
    "pre-authorized_grant_anonymous_access_supported": true,
  };
}

export const credentialOfferUri = (origin: string, id: string) => `${origin}${OPENID4VCI_PATHS.offer}/${id}`;

/** What a wallet scans or a phone opens: the offer by reference (section 4.1). */
export const credentialOfferLink = (origin: string, id: string) =>
  `openid-credential-offer://?${new URLSearchParams({ credential_offer_uri: credentialOfferUri(origin, id) })}`;

/** 6 random digits, uniformly (a rejection sample of 20 random bits). */
function newTxCode() {
  for (;;) {
    const [value] = crypto.getRandomValues(new Uint32Array(1));
    const candidate = value! >>> 12;
    if (candidate < 1_000_000) return String(candidate).padStart(6, "0");
  }
}

/**
 * Makes the offer that goes with the person's exchange `exchangeId` (the same 'Add to wallet'):
 * its id, or null when the exchange is not theirs.
 */
export function startCredentialOffer(context: ServiceContext, userId: string, exchangeId: string, now = new Date()) {
  return openCredentialOffer(context.db, {
    id: crypto.randomUUID(),
    userId,
    exchangeId,
    code: newInviteCode(),
    txCode: newTxCode(),
    createdAt: now,
    expiresAt: new Date(now.getTime() + OFFER_MINUTES * 60_000),
  });
}

const tooMany = () => new OAuthRefusal("slow_down", "Too many requests. Please wait a minute.");

/** The credential offer behind a `credential_offer_uri`. One D1 round trip. */
export async function answerOffer(
  context: ServiceContext,
  { origin, id, network, now = new Date() }: { origin: string; id: string; network: string; now?: Date },
) {
  const { db } = context;
  const [[attempt], [offer]] = await db.batch([
    countAttempt(db, "openid4vci-offer", network, now.getTime()),
    offerQuery(db, id),
  ]);
  if (!withinLimit("openid4vci-offer", attempt)) throw tooMany();
  if (!offer?.code) throw new OAuthRefusal("not_found", "No such credential offer.");
  if (offer.usedAt || offer.expiresAt <= now)
    throw new OAuthRefusal(
      "expired",
      "This credential offer was used or has expired. Ask for a new code on your passport.",
    );
  return {
    credential_issuer: origin,
    credential_configuration_ids: [CONFIGURATION_ID],
    grants: {
      [PRE_AUTHORIZED_GRANT]: {
        "pre-authorized_code": offer.code,
        tx_code: {
          input_mode: "numeric",
          length: 6,
          description: "The 6-digit code shown under the QR code on your passport",
        },
      },
    },
  };
}

async function refuseOverLimit(db: Db, action: RateLimitedAction, network: string, now: Date) {
  const [attempt] = await countAttempt(db, action, network, now.getTime());
  if (!withinLimit(action, attempt)) throw tooMany();
}

/**
 * The token endpoint (section 6): the pre-authorised code and its transaction code, once, traded
 * for an access token that lives `TOKEN_SECONDS`. Two D1 round trips.
 */
export async function answerToken(
  context: ServiceContext,
  { form, network, now = new Date() }: { form: URLSearchParams; network: string; now?: Date },
) {
  const { db } = context;
  await refuseOverLimit(db, "openid4vci-token", network, now);
  if (form.get("grant_type") !== PRE_AUTHORIZED_GRANT)
    throw new OAuthRefusal("unsupported_grant_type", `Only ${PRE_AUTHORIZED_GRANT} is supported.`);
  const code = form.get("pre-authorized_code");
  if (typeof code !== "string" || !code) throw new OAuthRefusal("invalid_request", "pre-authorized_code is missing.");
  const txCode = form.get("tx_code");
  const token = newInviteCode() + newInviteCode();
  const outcome = await redeemPreAuthorizedCode(db, {
    code,
    txCode,
    tokenHash: await tokenHashOf(token),
    now,
    tokenExpiresAt: new Date(now.getTime() + TOKEN_SECONDS * 1000),
  });
  if (outcome === "wrong-tx-code") throw new OAuthRefusal("invalid_grant", "The transaction code is not this offer's.");
  if (outcome === "invalid")
    throw new OAuthRefusal("invalid_grant", "The pre-authorised code is unknown, used or expired.");
  return { accessToken: token, expiresIn: TOKEN_SECONDS };
}

/** The nonce endpoint (section 7): a fresh c_nonce, stored for the proof that signs it. Two D1 round trips. */
export async function answerNonce(
  context: ServiceContext,
  { network, now = new Date() }: { network: string; now?: Date },
) {
  const { db } = context;
  await refuseOverLimit(db, "openid4vci-nonce", network, now);
  const nonce = newInviteCode();
  await storeNonce(db, nonce, now, new Date(now.getTime() + NONCE_SECONDS * 1000));
  return nonce;
}

/** The one `jwt` proof of a credential request, in 1.0's `proofs` or the earlier drafts' `proof`. */
function proofJwtOf(body: Record<string, unknown>): string {
  const many = body.proofs as { jwt?: unknown } | undefined;
  const one = body.proof as { proof_type?: unknown; jwt?: unknown } | undefined;
  if (many !== undefined && one !== undefined)
    throw new OAuthRefusal("invalid_credential_request", "Send proof or proofs, not both.");
  if (many !== undefined) {
    if (typeof many !== "object" || many === null || !Array.isArray(many.jwt) || Object.keys(many).length !== 1)
      throw new OAuthRefusal("invalid_proof", "proofs must carry jwt proofs only.");
    if (many.jwt.length !== 1) throw new OAuthRefusal("invalid_credential_request", "One proof, for one credential.");
    if (typeof many.jwt[0] === "string") return many.jwt[0];
    throw new OAuthRefusal("invalid_proof", "Not a JWT.");
  }
  if (typeof one === "object" && one !== null && one.proof_type === "jwt" && typeof one.jwt === "string")
    return one.jwt;
  throw new OAuthRefusal("invalid_proof", "A jwt proof of possession is required.");
}

/**
 * The credential endpoint (section 8): the token's credential, reissued to the key that signed
 * the proof. Two D1 round trips: the attempt counted with the token and nonce read, then both
 * spent together (atomically: a replay finds them used) with a new key version registered.
 */
export async function answerCredential(
  context: ServiceContext,
  signer: Issuing,
  {
    accessToken,
    body,
    network,
    now = new Date(),
  }: { accessToken: string | null; body: unknown; network: string; now?: Date },
): Promise<JsonObject> {
  if (!accessToken) throw new OAuthRefusal("invalid_token", "A Bearer access token is required.");
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new OAuthRefusal("invalid_credential_request", "The body must be a JSON object.");
  const request = body as Record<string, unknown>;
  if (request.credential_configuration_id !== CONFIGURATION_ID)
    throw new OAuthRefusal("unknown_credential_configuration", `The one configuration is ${CONFIGURATION_ID}.`);
  const jwt = proofJwtOf(request);
  // Checked before the reads, to look its nonce up with the token; refused only once the token is known good.
  const proof = await verifyProofJwt(jwt, { audience: signer.origin, now });

  const { db } = context;
  const tokenHash = await tokenHashOf(accessToken);
  const nonce = "nonce" in proof ? proof.nonce : "";
  const [tokenQuery, nonceQuery] = credentialRequestQueries(db, tokenHash, nonce);
  const [[attempt], [token], [nonceRow]] = await db.batch([
    countAttempt(db, "openid4vci-credential", network, now.getTime()),
    tokenQuery,
    nonceQuery,
  ]);
  if (!withinLimit("openid4vci-credential", attempt)) throw tooMany();
  if (!token?.json || token.usedAt || token.expiresAt <= now)
    throw new OAuthRefusal("invalid_token", "The access token is unknown, used or expired.");
  if (token.revokedAt) throw new OAuthRefusal("invalid_token", "This credential was revoked.");
  if ("error" in proof) throw new OAuthRefusal(proof.error, proof.description);
  if (!nonceRow || nonceRow.usedAt || nonceRow.expiresAt <= now)
    throw new OAuthRefusal("invalid_nonce", "The proof's nonce is not a fresh c_nonce: ask the nonce endpoint again.");

  const { credential, register } = await reissueStored(signer, { ...token, json: token.json }, proof.holder);
  const spent = await spendTokenAndNonce(db, { tokenHash, nonce, holder: proof.holder, now }, register);
  // Another request took the token or the nonce first: what was signed goes nowhere.
  if (!spent) throw new OAuthRefusal("invalid_token", "The access token or the nonce was already used.");
  return credential;
}
