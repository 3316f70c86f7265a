import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { organizationNameKey } from "#db/queries/organizations.ts";
import { VC_V2_CONTEXT } from "#app/services/credentials/contexts.server.ts";
import { sign } from "#app/services/credentials/data-integrity.server.ts";
import { issuing } from "#app/services/credentials/issuer.server.ts";
import { signedDomainLinkage } from "#app/services/credentials/domain-linkage.server.ts";
import {
  decodeList,
  emptyList,
  encodeList,
  inflateCapped,
  setBit,
  STATUS_LIST_MAX_BYTES,
  STATUS_LIST_SIZE,
} from "#app/services/credentials/status-list.server.ts";
import { verifierFor, verifyCredential } from "#app/services/credentials/verify.server.ts";
import { fetchOutside, OUTSIDE_MAX_BYTES, outsideBudget, readCapped } from "#app/services/outside-web.server.ts";
import { lookupTxt, resolverOver } from "#app/services/dns.server.ts";
import { readEnv } from "#app/utils/env.server.ts";
import { createDb } from "#db/client.ts";
import { putDevWebDocument } from "#db/queries/dev-stand-ins.ts";
import { postForm } from "./helpers.ts";
import { credentialJson, issuedCredential, type Credential } from "./credentials-helpers.ts";
import { webIssuer } from "./import-helpers.ts";

// Issue 29, "the verifier cannot be knocked over": every outside read is capped, timed and
// counted, hosts are parsed, and a status list cannot inflate past the size a list has.

const db = () => createDb(env.DB);
const inProduction = () => ({
  db: db(),
  env: { ENVIRONMENT: "production" as const, APP_URL: "https://passport.example" },
});
const JSON_ACCEPT = "application/json";
const CHUNK = 64 * 1024;

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * A body that would produce `total` bytes (100 MB by default) in 64 KB chunks, made only when
 * pulled: `pulled` says how much of it anyone read, `cancelled` whether the reader gave up.
 */
function endlessBody(total = 100 * 1024 * 1024) {
  const meter = { pulls: 0, pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (meter.pulled >= total) return controller.close();
        meter.pulls += 1;
        meter.pulled += CHUNK;
        controller.enqueue(new Uint8Array(CHUNK).fill(0x20));
      },
      cancel() {
        meter.cancelled = true;
      },
    },
    // Nothing is read ahead of the reader: each pull is one read.
    new CountQueuingStrategy({ highWaterMark: 0 }),
  );
  return { stream, meter };
}

/** Stands in for the network: answers the URLs it knows, and records every URL asked for. */
function network(answers: Record<string, () => Response>) {
  const asked: string[] = [];
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const url = input instanceof Request ? input.url : String(input);
    asked.push(url);
    return answers[url]?.() ?? new Response("not found", { status: 404 });
  });
  return { asked, spy };
}

const jsonResponse = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { "Content-Type": "application/json" } });

describe("fetchOutside reads at most 512 KB of another host's answer", () => {
  it.each([
    ["lies about its length", { "Content-Length": "1000" }],
    ["is chunked (no length)", {} as Record<string, string>],
  ])("abandons a 100 MB body that %s once it passed 512 KB", async (_case, headers) => {
    const { stream, meter } = endlessBody();
    network({ "https://issuer.example/big.json": () => new Response(stream, { headers }) });
    const answer = await fetchOutside(inProduction(), "https://issuer.example/big.json", { accept: JSON_ACCEPT });
    expect(answer).toEqual({ ok: false, reason: "larger than 512 KB" });
    // Nine chunks of 64 KB pass the cap; not one more is pulled, and the body is cancelled.
    expect(meter.pulled).toBe(OUTSIDE_MAX_BYTES + CHUNK);
    expect(meter.cancelled).toBe(true);
  });

  it("refuses at once a body whose Content-Length is over the cap, reading none of it", async () => {
    const { stream, meter } = endlessBody();
    network({
      "https://issuer.example/big.json": () =>
        new Response(stream, { headers: { "Content-Length": String(OUTSIDE_MAX_BYTES + 1) } }),
    });
    const answer = await fetchOutside(inProduction(), "https://issuer.example/big.json", { accept: JSON_ACCEPT });
    expect(answer).toEqual({ ok: false, reason: "larger than 512 KB" });
    expect(meter.pulls).toBe(0);
    expect(meter.cancelled).toBe(true);
  });

  it("readCapped stops pulling at the cap and gives back a body within it whole", async () => {
    const over = endlessBody();
    expect(await readCapped(over.stream, 100_000)).toBeNull();
    expect(over.meter).toEqual({ pulls: 2, pulled: 2 * CHUNK, cancelled: true });
    const within = endlessBody(3 * CHUNK);
    expect((await readCapped(within.stream, 3 * CHUNK))?.byteLength).toBe(3 * CHUNK);
  });

  it("asks with the caller's Accept, follows no redirect and gives up after its timeout", async () => {
    const { asked, spy } = network({
      "https://issuer.example/moved": () =>
        new Response(null, { status: 302, headers: { Location: "https://169.254.169.254/" } }),
    });
    const moved = await fetchOutside(inProduction(), "https://issuer.example/moved", {
      accept: "application/did+json",
    });
    expect(moved).toEqual({ ok: false, reason: "it redirects, and redirects are not followed" });
    expect(asked).toEqual(["https://issuer.example/moved"]);
    const init = spy.mock.calls[0]![1]!;
    expect(init.redirect).toBe("manual");
    expect(new Headers(init.headers).get("Accept")).toBe("application/did+json");
    expect(init.signal).toBeInstanceOf(AbortSignal);

    // A host that never answers: the request is aborted by its own timeout.
    spy.mockImplementation(
      (_input, request) =>
        new Promise((_resolve, reject) => {
          request!.signal!.addEventListener("abort", () => reject(request!.signal!.reason));
        }),
    );
    const slow = await fetchOutside(inProduction(), "https://issuer.example/slow", {
      accept: JSON_ACCEPT,
      timeoutMs: 50,
    });
    expect(slow).toEqual({ ok: false, reason: "no complete answer within 0.05 s" });
  });

  it.each(["http://issuer.example/did.json", "https://user:secret@issuer.example/did.json", "file:///etc/passwd"])(
    "refuses %s without asking the network",
    async (url) => {
      const { spy } = network({});
      const answer = await fetchOutside(inProduction(), url, { accept: JSON_ACCEPT });
      expect(answer).toEqual({ ok: false, reason: "only https:// addresses without user information are read" });
      expect(spy).not.toHaveBeenCalled();
    },
  );

  it.each([
    ["https://127.0.0.1/did.json", "an IP address is not read: only a named host"],
    ["https://[::1]/did.json", "an IP address is not read: only a named host"],
    ["https://2130706433/did.json", "an IP address is not read: only a named host"],
    ["https://localhost/did.json", "only a full domain name is read"],
    ["https://intranet/did.json", "only a full domain name is read"],
    ["https://issuer.example:8443/did.json", "only the https port (443) is read"],
    ["https://passport.example/orgs/1/did.json", "this app's own address is not read from outside"],
  ])("keeps to public hosts (issue 43): refuses %s without asking the network", async (url, reason) => {
    const { spy } = network({});
    expect(await fetchOutside(inProduction(), url, { accept: JSON_ACCEPT })).toEqual({ ok: false, reason });
    expect(spy).not.toHaveBeenCalled();
  });

  it("caps a DNS-over-HTTPS answer while reading it (issue 43)", async () => {
    const { stream, meter } = endlessBody();
    const resolve = resolverOver("https://resolver.example/dns-query", async () => new Response(stream));
    expect(await lookupTxt(resolve, "_career-passport.acme.example")).toMatchObject({ ok: false });
    expect(meter.cancelled).toBe(true);
    expect(meter.pulled).toBeLessThan(1024 * 1024);
  });

  it("spends a check's budget of three reads, then refuses without asking", async () => {
    const paths = ["a", "b", "c", "d"];
    const { asked } = network(
      Object.fromEntries(paths.map((path) => [`https://issuer.example/${path}`, () => jsonResponse({})])),
    );
    const budget = outsideBudget();
    const answers = [];
    for (const path of paths) {
      answers.push(
        await fetchOutside(inProduction(), `https://issuer.example/${path}`, { accept: JSON_ACCEPT, budget }),
      );
    }
    expect(answers.map((answer) => answer.ok)).toEqual([true, true, true, false]);
    expect(answers[3]).toEqual({ ok: false, reason: "this check already read as many outside documents as it may" });
    expect(asked).toHaveLength(3);
  });

  it("keeps what it read in the edge cache: reading it again asks nothing and spends no budget", async () => {
    const { asked } = network({ "https://issuer.example/cached": () => jsonResponse({ read: 1 }) });
    const first = await fetchOutside(inProduction(), "https://issuer.example/cached", { accept: JSON_ACCEPT });
    const budget = outsideBudget(0);
    const again = await fetchOutside(inProduction(), "https://issuer.example/cached", { accept: JSON_ACCEPT, budget });
    expect(again).toEqual(first);
    expect(again).toMatchObject({ ok: true, body: '{"read":1}' });
    expect(asked).toEqual(["https://issuer.example/cached"]);
  });

  it("outside production reads only the /dev/web.json stand-in, never the network", async () => {
    const { spy } = network({});
    const local = { db: db(), env: { ENVIRONMENT: "test" as const } };
    await putDevWebDocument(local.db, {
      url: "https://issuer.example/.well-known/did.json",
      contentType: "application/did+json",
      body: '{"id":"did:web:issuer.example"}',
    });
    expect(await fetchOutside(local, "https://issuer.example/.well-known/did.json", { accept: JSON_ACCEPT })).toEqual({
      ok: true,
      contentType: "application/did+json",
      body: '{"id":"did:web:issuer.example"}',
    });
    const missing = await fetchOutside(local, "https://issuer.example/other.json", { accept: JSON_ACCEPT });
    expect(missing.ok).toBe(false);
    expect(spy).not.toHaveBeenCalled();
  });
});

// ---- Status lists ----

function base64url(bytes: Uint8Array) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

let bomb: Promise<Uint8Array> | undefined;
/** 50 MB of zeros, gzipped: about 50 KB that inflate a thousandfold. */
function gzipBomb() {
  let made = 0;
  const zeros = new ReadableStream<BufferSource>({
    pull(controller) {
      if (made >= 50 * 1024 * 1024) return controller.close();
      made += CHUNK;
      controller.enqueue(new Uint8Array(CHUNK));
    },
  });
  return (bomb ??= readCapped(zeros.pipeThrough(new CompressionStream("gzip")), Infinity).then((bytes) => bytes!));
}

describe("a status list inflates no further than the size it declares (at most 2 MB)", () => {
  it("refuses a gzip bomb, having read only the first pieces of it", async () => {
    const compressed = await gzipBomb();
    expect(compressed.byteLength).toBeLessThan(100 * 1024);
    expect(await decodeList(`u${base64url(compressed)}`)).toBeNull();

    // Fed in 1 KB pieces, made only when pulled: inflating stops within the first few.
    let pieces = 0;
    let offset = 0;
    const source = new ReadableStream<BufferSource>(
      {
        pull(controller) {
          if (offset >= compressed.byteLength) return controller.close();
          pieces += 1;
          controller.enqueue(compressed.slice(offset, (offset += 1024)));
        },
      },
      new CountQueuingStrategy({ highWaterMark: 0 }),
    );
    expect(await inflateCapped(source, STATUS_LIST_SIZE / 8)).toBeNull();
    // (The inflater reads a few pieces ahead of its 4 KB outputs; each piece inflates to 1 MB at most.)
    expect(pieces).toBeLessThan(10);
    expect(Math.ceil(compressed.byteLength / 1024)).toBeGreaterThan(40);
  });

  // Issue 43: another issuer's list may be larger than ours; it was refused over 16 KB (256 KB on
  // import) as unreadable. The cap now follows the size the list's gzip declares, up to 2 MB.
  it.each([
    ["16 KB", STATUS_LIST_SIZE / 8],
    ["16 KB and a byte", STATUS_LIST_SIZE / 8 + 1],
    ["1 MB", 1024 * 1024],
    ["2 MB", STATUS_LIST_MAX_BYTES],
  ])("reads a lawful list of %s, up to the size it declares", async (_size, bytes) => {
    const bits = new Uint8Array(bytes);
    setBit(bits, 7);
    setBit(bits, bytes * 8 - 1);
    expect(await decodeList(await encodeList(bits))).toEqual(bits);
  });

  it("refuses a list over 2 MB, and one that inflates past the size it declares", async () => {
    expect(await decodeList(await encodeList(new Uint8Array(STATUS_LIST_MAX_BYTES + 1)))).toBeNull();
    // A 1 MB list whose gzip trailer claims 16 KB: inflating stops there, and it is refused.
    const encoded = await encodeList(new Uint8Array(1024 * 1024));
    const gzip = Uint8Array.from(atob(encoded.slice(1).replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    new DataView(gzip.buffer).setUint32(gzip.byteLength - 4, STATUS_LIST_SIZE / 8, true);
    expect(await decodeList(`u${base64url(gzip)}`)).toBeNull();
  });
});

// ---- The verifier ----

const localVerifier = () => verifierFor(issuing(db(), readEnv({ ...env }))!, "test");
const productionVerifier = () => verifierFor(issuing(db(), readEnv({ ...env }))!, "production");
const detailOf = (result: { checks: { name: string; detail: string }[] }, name: string) =>
  result.checks.find((check) => check.name === name)?.detail;

let template: Promise<Credential> | undefined;
/** One of our credentials, as the body that a credential of another issuer is made from. */
const ownCredential = () =>
  (template ??= issuedCredential().then(({ credentialId }) => credentialJson(credentialId))).then((credential) =>
    structuredClone(credential),
  );

/** Another issuer on another host: its key, DID document, a status list and a credential it signed. */
async function outsideIssuer({
  host = "issuer.example",
  listUrl = `https://${host}/status/1`,
  encodedList,
  linkedDomains = [],
  name = "Issuer Example",
}: { host?: string; listUrl?: string; encodedList?: string; linkedDomains?: string[]; name?: string } = {}) {
  const { did, key, didDocument } = await webIssuer(host, linkedDomains);
  const now = new Date();
  const statusList = await sign(
    {
      "@context": [VC_V2_CONTEXT],
      id: listUrl,
      type: ["VerifiableCredential", "BitstringStatusListCredential"],
      issuer: did,
      validFrom: "2026-01-01T00:00:00Z",
      credentialSubject: {
        id: `${listUrl}#list`,
        type: "BitstringStatusList",
        statusPurpose: "revocation",
        encodedList: encodedList ?? (await encodeList(emptyList())),
      },
    },
    key,
    now,
  );
  const { proof: _proof, ...unsigned } = await ownCredential();
  const credential = await sign(
    {
      ...unsigned,
      id: `https://${host}/credentials/1`,
      issuer: { ...unsigned.issuer, id: did, name },
      credentialStatus: {
        ...unsigned.credentialStatus,
        id: `${listUrl}#5`,
        statusListIndex: "5",
        statusListCredential: listUrl,
      },
    },
    key,
    now,
  );
  const documents: Record<string, () => Response> = {
    [`https://${host}/.well-known/did.json`]: () => jsonResponse(didDocument),
    [listUrl]: () => jsonResponse(statusList),
  };
  return { did, key, credential: credential as Credential, documents };
}

describe("the verifier", () => {
  it("checks one of our own credentials without any outside read", async () => {
    const credential = await ownCredential();
    const { spy } = network({});
    const result = await verifyCredential(credential, productionVerifier());
    expect(result.verdict).toBe("Valid");
    expect(spy).not.toHaveBeenCalled();
  });

  it("verifies another host's credential with two reads: its DID document once, then its status list", async () => {
    const issuer = await outsideIssuer();
    const { asked } = network(issuer.documents);
    const result = await verifyCredential(issuer.credential, productionVerifier());
    expect(result.checks.filter((check) => !check.passed)).toEqual([]);
    expect(result.verdict).toBe("Valid");
    expect(asked).toEqual(["https://issuer.example/.well-known/did.json", "https://issuer.example/status/1"]);
  });

  it("in development and tests reads another host's documents from the /dev/web.json stand-in", async () => {
    const issuer = await outsideIssuer();
    for (const [url, answer] of Object.entries(issuer.documents)) {
      await putDevWebDocument(db(), { url, contentType: "application/json", body: await answer().text() });
    }
    const { spy } = network({});
    expect((await verifyCredential(issuer.credential, localVerifier())).verdict).toBe("Valid");
    expect(spy).not.toHaveBeenCalled();
  });

  it("reads no status list for a credential whose signature fails", async () => {
    const issuer = await outsideIssuer();
    issuer.credential.credentialSubject.achievement.name = "Something else";
    const { asked } = network(issuer.documents);
    const result = await verifyCredential(issuer.credential, productionVerifier());
    expect(result.verdict).toBe("Invalid");
    expect(detailOf(result, "Signature")).toBe("The signature does not match the credential.");
    expect(detailOf(result, "Status")).toBe("Not checked, as the signature does not verify.");
    expect(asked).toEqual(["https://issuer.example/.well-known/did.json"]);
  });

  it("refuses a status list on another host than the issuer's, without reading it", async () => {
    const issuer = await outsideIssuer({ listUrl: "https://lists.elsewhere.example/1" });
    const { asked } = network(issuer.documents);
    const result = await verifyCredential(issuer.credential, productionVerifier());
    expect(result.verdict).toBe("Invalid");
    expect(detailOf(result, "Status")).toBe(
      "The status list is on lists.elsewhere.example, not on the issuer's host issuer.example; it was not fetched.",
    );
    expect(asked).toEqual(["https://issuer.example/.well-known/did.json"]);
  });

  it("refuses a signed status list that is a gzip bomb", async () => {
    const issuer = await outsideIssuer({ encodedList: `u${base64url(await gzipBomb())}` });
    network(issuer.documents);
    const result = await verifyCredential(issuer.credential, productionVerifier());
    expect(result.verdict).toBe("Invalid");
    expect(detailOf(result, "Signature")).toBe("The signature is valid.");
    expect(detailOf(result, "Status")).toBe("The status list cannot be read.");
  });

  it("refuses a status list whose body lies about its length, having read 512 KB of it", async () => {
    const issuer = await outsideIssuer();
    const { stream, meter } = endlessBody();
    network({
      ...issuer.documents,
      "https://issuer.example/status/1": () => new Response(stream, { headers: { "Content-Length": "2000" } }),
    });
    const result = await verifyCredential(issuer.credential, productionVerifier());
    expect(detailOf(result, "Status")).toBe("The status list could not be read: larger than 512 KB.");
    expect(meter.pulled).toBe(OUTSIDE_MAX_BYTES + CHUNK);
  });

  it("builds a did:web URL with the URL API: a path, and a port as did:web encodes it (not read: issue 43)", async () => {
    const { asked } = network({});
    const credential = await ownCredential();
    credential.issuer.id = "did:web:issuer.example:users:ada";
    credential.proof[0].verificationMethod = "did:web:issuer.example:users:ada#key-1";
    const result = await verifyCredential(credential, productionVerifier());
    expect(asked).toEqual(["https://issuer.example/users/ada/did.json"]);
    expect(detailOf(result, "Issuer key")).toBe(
      "The issuer's DID document could not be read from issuer.example: it answered 404.",
    );
    // The outbound host rule reads only the https port.
    credential.issuer.id = "did:web:issuer.example%3A8443:users:ada";
    credential.proof[0].verificationMethod = "did:web:issuer.example%3A8443:users:ada#key-1";
    const ported = await verifyCredential(credential, productionVerifier());
    expect(asked).toHaveLength(1);
    expect(detailOf(ported, "Issuer key")).toBe(
      "The issuer's DID document could not be read from issuer.example:8443: only the https port (443) is read.",
    );
  });

  // Each host names where the request would go if it were pasted into a URL.
  it.each([
    ["an IPv4 address", "127.0.0.1", "is an IP address, not a domain name"],
    ["an IPv4 address as one number", "2130706433", "is an IP address, not a domain name"],
    ["an IPv4 address in hex", "0x7f.0.0.1", "is an IP address, not a domain name"],
    ["a name ending in a hex number", "issuer.0x7f", "is an IP address, not a domain name"],
    ["an IPv6 address", "%5B%3A%3A1%5D", "is an IP address, not a domain name"],
    ["an IPv6 address without brackets", "fd00%3A%3A1", "is an IP address, not a domain name"],
    ["user information", "issuer.example%40169.254.169.254", "names a user (@), which a did:web host cannot"],
    ["an encoded slash", "169.254.169.254%2Fissuer.example", "carries a path, query or fragment (/ ? # \\)"],
    ["an encoded question mark", "internal.example%3F.issuer.example", "carries a path, query or fragment (/ ? # \\)"],
    ["an encoded hash", "internal.example%23.issuer.example", "carries a path, query or fragment (/ ? # \\)"],
    ["an encoded backslash", "internal.example%5C.issuer.example", "carries a path, query or fragment (/ ? # \\)"],
    ["a port that is not a number", "issuer.example%3Ahttp", "has a port that is not a number from 1 to 65535"],
    ["a port out of range", "issuer.example%3A70000", "has a port that is not a number from 1 to 65535"],
    ["a percent-encoded letter", "%69ssuer.example", "percent-encodes characters a domain name cannot have"],
    ["a non-ASCII name not in punycode", "b%C3%BCcher.example", "percent-encodes characters a domain name cannot have"],
    ["broken percent-encoding", "issuer.example%E0%A4%A", "is not validly percent-encoded"],
    ["upper case", "Issuer.example", "is not a plain domain name (lowercase letters, digits and hyphens between dots)"],
    [
      "an underscore",
      "issuer_x.example",
      "is not a plain domain name (lowercase letters, digits and hyphens between dots)",
    ],
    [
      "an empty label",
      "issuer..example",
      "is not a plain domain name (lowercase letters, digits and hyphens between dots)",
    ],
    [
      "a trailing dot",
      "issuer.example.",
      "is not a plain domain name (lowercase letters, digits and hyphens between dots)",
    ],
    [
      "a leading hyphen",
      "-issuer.example",
      "is not a plain domain name (lowercase letters, digits and hyphens between dots)",
    ],
    ["no host", "", "is not a plain domain name (lowercase letters, digits and hyphens between dots)"],
  ])("refuses a did:web host with %s (%s) without any read", async (_case, host, why) => {
    const { spy } = network({});
    const credential = await ownCredential();
    credential.issuer.id = `did:web:${host}:orgs:1`;
    credential.proof[0].verificationMethod = `did:web:${host}:orgs:1#key-1`;
    const result = await verifyCredential(credential, productionVerifier());
    expect(result.verdict).toBe("Invalid");
    expect(detailOf(result, "Issuer key")).toBe(`The issuer's did:web host "${host}" ${why}; nothing was fetched.`);
    expect(spy).not.toHaveBeenCalled();
  });

  it.each([
    ["a single-label name", "did:web:metadata", 'The issuer\'s did:web host "metadata" is not a public domain name'],
    ["localhost on another port", "did:web:localhost%3A8080", 'The issuer\'s did:web host "localhost:8080" is not'],
    ["a path that climbs", "did:web:issuer.example:..:admin", "The issuer's did:web path is not plain names"],
    ["a path with an encoded slash", "did:web:issuer.example:a%2F..%2Fb", "The issuer's did:web path is not plain"],
    ["an empty path segment", "did:web:issuer.example::did", "The issuer's did:web path is not plain names"],
  ])("refuses %s without any read", async (_case, did, refusal) => {
    const { spy } = network({});
    const credential = await ownCredential();
    credential.issuer.id = did;
    credential.proof[0].verificationMethod = `${did}#key-1`;
    const result = await verifyCredential(credential, productionVerifier());
    expect(detailOf(result, "Issuer key")).toContain(refusal);
    expect(detailOf(result, "Issuer key")).toContain("nothing was fetched.");
    expect(spy).not.toHaveBeenCalled();
  });

  it("shows the refusal on the Verify page", async () => {
    const credential = await ownCredential();
    credential.issuer.id = "did:web:169.254.169.254";
    credential.proof[0].verificationMethod = "did:web:169.254.169.254#key-1";
    const response = await postForm("/verify", { json: JSON.stringify(credential) });
    const html = await response.text();
    expect(html).toContain("169.254.169.254&quot; is an IP address, not a domain name; nothing was fetched.");
    expect(html).toContain("Not checked, as the signature does not verify.");
  });
});

describe("who stands behind another host's issuer (its linked domains)", () => {
  it("confirms a domain whose did-configuration.json links back, within the budget of three reads", async () => {
    const issuer = await outsideIssuer({ linkedDomains: ["issuer.example"] });
    const configuration = await signedDomainLinkage(issuer.did, issuer.key, "issuer.example");
    const { asked } = network({
      ...issuer.documents,
      "https://issuer.example/.well-known/did-configuration.json": () => jsonResponse(configuration),
    });
    const result = await verifyCredential(issuer.credential, productionVerifier());
    expect(result.verdict).toBe("Valid");
    expect(result.issuer?.identity.verifiedDomain?.domain).toBe("issuer.example");
    expect(result.issuer?.domains).toEqual([
      { domain: "issuer.example", linked: true, detail: "issuer.example links to this issuer." },
    ]);
    expect(asked).toHaveLength(3);
  });

  it("says so per domain when a domain's file is missing or names another DID, and reads no fourth document", async () => {
    const issuer = await outsideIssuer({ linkedDomains: ["issuer.example", "other.example", "third.example"] });
    const stranger = await outsideIssuer({ host: "stranger.example" });
    const { asked } = network({
      ...issuer.documents,
      "https://issuer.example/.well-known/did-configuration.json": async () =>
        jsonResponse(await signedDomainLinkage(stranger.did, stranger.key, "issuer.example")),
    } as unknown as Record<string, () => Response>);
    const result = await verifyCredential(issuer.credential, productionVerifier());
    expect(result.verdict).toBe("Valid");
    expect(result.issuer?.identity).toEqual({ verifiedDomain: null, nameNotVerified: false });
    expect(result.issuer?.domains.map((check) => check.linked)).toEqual([false, false, false]);
    expect(result.issuer?.domains[0]!.detail).toContain("does not name this issuer");
    expect(result.issuer?.domains[2]!.detail).toContain("could not be read");
    expect(asked).toHaveLength(3);
  });

  it("marks an outside issuer named like one of our verified issuers, with no domain behind it", async () => {
    await env.DB.prepare(
      "insert into organizations (id, name, name_key, invite_code, created_at) values (?, 'University of Example', ?, 'x', 0)",
    )
      .bind(crypto.randomUUID(), organizationNameKey("University of Example"))
      .run();
    await env.DB.prepare(
      "insert into organization_domains (id, organization_id, domain, token, status, name_key, created_at) select ?, id, 'example.ac.uk', 't', 'verified', name_key, 0 from organizations where name = 'University of Example'",
    )
      .bind(crypto.randomUUID())
      .run();
    const issuer = await outsideIssuer({ name: "UNIVERSITY of Éxample" });
    network(issuer.documents);
    const result = await verifyCredential(issuer.credential, productionVerifier());
    expect(result.verdict).toBe("Valid");
    expect(result.issuer?.identity).toEqual({ verifiedDomain: null, nameNotVerified: true });
  });

  it("looks nothing up for a credential whose signature fails", async () => {
    const issuer = await outsideIssuer({ linkedDomains: ["issuer.example"] });
    issuer.credential.name = "Changed after signing";
    const { asked } = network(issuer.documents);
    const result = await verifyCredential(issuer.credential, productionVerifier());
    expect(result.verdict).toBe("Invalid");
    expect(result.issuer).toBeUndefined();
    expect(asked).toEqual(["https://issuer.example/.well-known/did.json"]);
  });
});
