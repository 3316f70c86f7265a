import { Hono } from "hono";
import { answerWalletExchange } from "#app/services/wallet-exchange.server.ts";
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
    const signer = issuingOf(c);
    const id = c.req.param("id");
    const { status, body } = await answerWalletExchange(c.get("loadContext"), signer, {
      id,
      presentation,
      network: clientNetwork(c.req.raw),
    });
    // A presentation that did not authenticate, or a spent one presented again: worth seeing.
    if ("error" in body && (status === 401 || status === 410))
      securityEvent("wallet.refused", {
        reason: body.error,
        route: pathOf(c.req.raw),
        exchangeId: id,
        requestId: c.get("requestId"),
      });
    return answer(status, body);
  });
