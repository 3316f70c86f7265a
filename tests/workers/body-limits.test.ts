import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "#workers/test-app.ts";
import {
  AUTH_FORM_MAX_BYTES,
  PREFERENCES_FORM_MAX_BYTES,
  STRIPE_EVENT_MAX_BYTES,
  VERIFY_FORM_MAX_BYTES,
} from "#workers/middleware/body-limit.ts";
import { newClientIp, ORIGIN } from "./helpers.ts";

// Issue 34's review finding: what anyone may post without an account is read up to a cap and
// answered 413 past it, whatever Content-Length said: sent in chunks with no length at all, or
// with a length far larger than the cap.

/** A body of `bytes` form-encoded bytes, sent in 16 KiB chunks with no Content-Length. */
function chunked(bytes: number) {
  const chunk = new TextEncoder().encode("a".repeat(16 * 1024));
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      controller.enqueue(chunk);
      sent += chunk.byteLength;
    },
  });
}

async function post(path: string, body: BodyInit, headers: Record<string, string> = {}) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: ORIGIN,
        Host: new URL(ORIGIN).host,
        "cf-connecting-ip": newClientIp(),
        "Stripe-Signature": "t=1,v1=00",
        ...headers,
      },
      body,
      redirect: "manual",
    }),
    { ...env, STRIPE_WEBHOOK_SECRET: "whsec_test_body_limits" } as Env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

const CAPPED = [
  ["/auth", AUTH_FORM_MAX_BYTES],
  ["/auth/forgot-password", AUTH_FORM_MAX_BYTES],
  ["/auth/two-factor", AUTH_FORM_MAX_BYTES],
  ["/api/auth/sign-in/email", AUTH_FORM_MAX_BYTES],
  ["/verify", VERIFY_FORM_MAX_BYTES],
  ["/api/stripe/webhook", STRIPE_EVENT_MAX_BYTES],
  ["/preferences", PREFERENCES_FORM_MAX_BYTES],
  // The routers answer these as the paths above (Remix matches in any case, with a trailing slash,
  // after decoding), so the caps hold for them too (issue 43).
  ["/VERIFY", VERIFY_FORM_MAX_BYTES],
  ["/verify/", VERIFY_FORM_MAX_BYTES],
  ["/%76erify", VERIFY_FORM_MAX_BYTES],
  ["/Auth", AUTH_FORM_MAX_BYTES],
  ["/auth//", AUTH_FORM_MAX_BYTES],
  ["/AUTH/Forgot-Password", AUTH_FORM_MAX_BYTES],
  ["/Preferences/", PREFERENCES_FORM_MAX_BYTES],
] as const;

describe("bodies of anonymous endpoints", () => {
  it.each(CAPPED)("%s answers 413 to a chunked body past its cap", async (path, cap) => {
    const response = await post(path, chunked(cap + 64 * 1024));
    expect(response.status).toBe(413);
    expect(await response.text()).toBe("Payload Too Large");
  });

  it.each(CAPPED)("%s answers 413 to a declared length past its cap, unread", async (path, cap) => {
    const response = await post(path, "a=1", { "Content-Length": String(cap + 1) });
    expect(response.status).toBe(413);
    await response.arrayBuffer();
  });

  it("the other spellings of a capped path reach the same page as the path itself", async () => {
    // What the cap protects: without it, these posts were read whole by the page's action.
    const fields = "intent=signin&email=nobody%40example.com&password=not-the-password";
    for (const path of ["/Auth", "/auth/"]) {
      const response = await post(path, fields);
      expect(response.status).toBe(401);
      expect(await response.text()).toContain("Sign in failed");
    }
    // The preference form without JavaScript goes back where it came from.
    const consent = await post("/Preferences/", "intent=cookie-consent&value=declined&redirectTo=%2Fterms");
    expect(consent.status).toBe(302);
    expect(consent.headers.get("Location")).toBe("/terms");
  });

  it("hands a body within the cap on as sent, chunked or not", async () => {
    const fields = "intent=signin&email=nobody%40example.com&password=not-the-password";
    for (const body of [fields, new Blob([fields]).stream()]) {
      const response = await post("/auth", body);
      // The sign-in form's own answer: the form read whole, the credentials refused.
      expect(response.status).toBe(401);
      expect(await response.text()).toContain("Sign in failed");
    }
  });
});
