import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { decode } from "turbo-stream";
import { expect } from "vitest";
import worker from "#workers/test-app.ts";
import { cookiesFrom, formRequest, newClientNetwork, PASSWORD, postForm } from "./helpers.ts";
import type { softwarePasskey } from "./software-passkey.ts";

// The passkey ceremonies as a browser's script drives them (decision 061), for the Workers tests
// of passkeys and of the step-up page (decision 089): the authenticator is the software one.

export type Person = { id: string; email: string; cookie: string };
export type Authenticator = Awaited<ReturnType<typeof softwarePasskey>>;

/** Posts as the page's script does (Remix's single fetch): the action's data, decoded, and the cookies. */
export async function postData(path: string, fields: Record<string, string>, cookie?: string) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    formRequest(`${path}.data`, fields, { cookie, ip: newClientNetwork() }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  const { value } = await decode(response.body!);
  return {
    response,
    data: (value as { data?: Record<string, unknown> }).data ?? {},
    cookie: cookiesFrom(response, cookie),
  };
}

/** Settings' 'Continue': the password, then the options the browser creates the passkey with. */
export async function registrationOptions(person: Person, password = PASSWORD) {
  const { data, cookie } = await postData(
    "/settings/security",
    { intent: "passkey-options", password, name: "" },
    person.cookie,
  );
  return { options: data.passkeyOptions as Parameters<Authenticator["create"]>[0] | undefined, cookie };
}

/** 'Add a passkey' from start to end; the answer of its last step. */
export async function addPasskey(person: Person, authenticator: Authenticator, name = "") {
  const { options, cookie } = await registrationOptions(person);
  expect(options).toBeDefined();
  const response = await authenticator.create(options!);
  return postForm("/settings/security", { intent: "add-passkey", response, name }, { cookie });
}

/**
 * The challenge of POST /auth/passkey-options, asked by a browser holding `cookie` (none, or a
 * session's): the options to sign, and the cookies then held (the challenge's added).
 */
export async function signInOptions(cookie = "") {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    formRequest("/auth/passkey-options", {}, { cookie, ip: newClientNetwork() }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  expect(response.status).toBe(200);
  const options = (await response.json()) as { challenge: string; rpId: string; allowCredentials?: unknown[] };
  return { options, cookie: cookiesFrom(response, cookie) };
}
