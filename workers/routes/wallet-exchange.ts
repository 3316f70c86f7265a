import { Hono } from "hono";
import type { JsonObject } from "#app/services/credentials/data-integrity.server.ts";
import { VC_V2_CONTEXT } from "#app/services/credentials/contexts.server.ts";
import { answerWalletExchange, PROVED } from "#app/services/wallet-exchange.server.ts";
import { ExchangeRefusal, type ExchangeProblem } from "#app/utils/domain-errors.server.ts";
import { pathOf, securityEvent } from "#app/utils/log.server.ts";
import { readCapped } from "#app/services/outside-web.server.ts";
import { clientNetwork } from "#app/utils/rate-limit.server.ts";
import type { WorkerEnv } from "../types.ts";
import { issuingOf } from "./credentials.ts";

/**
 * The `vc_request_url` of 'Add to wallet' (decision 064, docs/security.md "Wallet exchange"):
 * a wallet posts its DIDAuth presentation and gets the credential back. Any origin (CORS *), no
 * cookies read or set: the exchange's unguessable id and the signature over its one-time
 * challenge are the whole authentication, as the cross-site check's exemption relies on.
 */

export const WALLET_EXCHANGE_PATH =
  /^\/credentials\/exchanges\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A DIDAuth presentation is about 1 kB; anything far larger is not one. */
const MAX_PRESENTATION_BYTES = 64 * 1024;

const CORS = { "Access-Control-Allow-Origin": "*", "Cache-Control": "no-store" };

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { ...CORS, "Content-Type": "application/json" } });

/** The body as text, or null once it passes the cap (the rest is never read). */
async function boundedText(request: Request, cap: number) {
  if (Number(request.headers.get("Content-Length") ?? 0) > cap) return null;
  const bytes = await readCapped(request.body, cap);
  return bytes && new TextDecoder().decode(bytes);
}

/** The status of each refusal of the exchange's service. */
const PROBLEM_STATUS: Record<ExchangeProblem, number> = {
  unknown: 404,
  throttled: 429,
  gone: 410,
  unauthenticated: 401,
  unissued: 500,
};

/** A wallet's credential, answered as an exchange answers it. */
function credentialAnswer(credential: JsonObject) {
  const presentation = {
    "@context": [VC_V2_CONTEXT],
    type: ["VerifiablePresentation"],
    verifiableCredential: [credential],
  };
  // VC-API exchanges answer `{verifiablePresentation}`; the wallet's deep-link request
  // (app/lib/credentialRequest.ts) reads the body itself as a VC or VP. Both find it (decision 064).
  return answer(200, { ...presentation, verifiablePresentation: presentation });
}

const isWrapped = (body: unknown): body is { verifiablePresentation: unknown } =>
  typeof body === "object" && body !== null && !("type" in body) && "verifiablePresentation" in body;

export const walletExchangeRoutes = new Hono<WorkerEnv>()
  .options("/credentials/exchanges/:id", (c) => {
    for (const [name, value] of Object.entries({
      ...CORS,
      "Access-Control-Allow-Methods": "POST, OPTIONS",
      "Access-Control-Allow-Headers": "Content-Type, Authorization",
      "Access-Control-Max-Age": "86400",
    }))
      c.header(name, value);
    return c.body(null, 204);
  })
  .post("/credentials/exchanges/:id", async (c) => {
    if (!WALLET_EXCHANGE_PATH.test(new URL(c.req.url).pathname)) return answer(404, { error: "No such exchange." });
    const text = await boundedText(c.req.raw, MAX_PRESENTATION_BYTES);
    if (text === null) return answer(413, { error: "The presentation is too large (at most 64 KB)." });
    let presentation: unknown;
    try {
      presentation = JSON.parse(text);
    } catch {
      return answer(400, { error: "The body must be a JSON verifiable presentation." });
    }
    // The deep-link request posts the presentation itself; a VC-API exchange wraps it.
    if (isWrapped(presentation)) presentation = presentation.verifiablePresentation;
    const id = c.req.param("id");
    try {
      const answered = await answerWalletExchange(c.get("loadContext"), issuingOf(c), {
        id,
        presentation,
        network: clientNetwork(c.req.raw),
      });
      // An import's proof hands nothing over: the exchange is done (VC-API's empty answer).
      return answered === PROVED ? answer(200, {}) : credentialAnswer(answered);
    } catch (error) {
      if (!(error instanceof ExchangeRefusal)) throw error;
      // A presentation that did not authenticate, or a spent one presented again: worth seeing.
      if (error.problem === "unauthenticated" || error.problem === "gone")
        securityEvent("wallet.refused", {
          reason: error.message,
          route: pathOf(c.req.raw),
          exchangeId: id,
          requestId: c.get("requestId"),
        });
      return answer(PROBLEM_STATUS[error.problem], { error: error.message });
    }
  });
