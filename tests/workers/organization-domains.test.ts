import { createExecutionContext, createScheduledController, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import worker from "#workers/test-app.ts";
import { lookupTxt, resolverOver } from "#app/services/dns.server.ts";
import { parseDomain } from "#app/services/organization-domains.server.ts";
import { checkDomainLinkage, linkedDomainsOf } from "#app/services/credentials/domain-linkage.server.ts";
import { assertionKey } from "#app/services/credentials/did-web.server.ts";
import { credentialJson, credentialOf, dccVerify, giveAndAccept, verified } from "./credentials-helpers.ts";
import { organizationNameKey } from "#db/queries/organizations.ts";
import { addMember, createOrganisation } from "./factories.ts";
import { createAccount, get, ORIGIN, postForm, toastFrom } from "./helpers.ts";

// Issuer domains (issue 29): an admin claims a domain, publishes the TXT record through the DNS
// stand-in (/dev/dns.json, which answers as a DNS-over-HTTPS resolver does), and verifies it;
// the daily cron checks it again and lapses it after three failures in a row.

const DAY = 24 * 60 * 60 * 1000;

async function adminOfNewOrganisation(name?: string) {
  const organisation = await createOrganisation({ name });
  // The dashboard picks the admin's active organisation.
  expect((await get("/dashboard", organisation.admin.cookie)).status).toBe(200);
  return organisation;
}

const claimOf = (organizationId: string, domain: string) =>
  env.DB.prepare(
    "select id, token, status, failed_checks as failedChecks from organization_domains where organization_id = ? and domain = ?",
  )
    .bind(organizationId, domain)
    .first<{ id: string; token: string; status: string; failedChecks: number }>();

async function addDomain(cookie: string, domain: string) {
  return postForm("/dashboard/organization", { intent: "add-domain", domain }, { cookie });
}

const verify = (cookie: string, domainId: string) =>
  postForm("/dashboard/organization", { intent: "verify-domain", domainId }, { cookie });

function publish(name: string, data: string) {
  return SELF.fetch(`${ORIGIN}/dev/dns.json`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name, type: "TXT", data }),
  });
}

const unpublish = (name: string) =>
  SELF.fetch(`${ORIGIN}/dev/dns.json?name=${encodeURIComponent(name)}`, { method: "DELETE" });

/** An organisation with `domain` verified through the stand-in. */
async function verifiedOrganisation(domain: string, name?: string) {
  const organisation = await adminOfNewOrganisation(name);
  expect((await addDomain(organisation.admin.cookie, domain)).status).toBe(302);
  const claim = (await claimOf(organisation.organizationId, domain))!;
  expect((await publish(`_career-passport.${domain}`, `career-passport-verification=${claim.token}`)).status).toBe(201);
  expect((await verify(organisation.admin.cookie, claim.id)).status).toBe(302);
  return { ...organisation, claim };
}

/** A page's text as a reader sees it: tags and React's text separators gone, quotes decoded. */
const textOf = async (response: Response) =>
  (await response.text())
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ");

async function runCron(at: number) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: at, cron: "0 3 * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe("proving a domain", () => {
  it("shows the record to publish, and verifies the domain once DNS has it", async () => {
    const { admin, organizationId } = await adminOfNewOrganisation();
    const added = await addDomain(admin.cookie, "  HTTPS://Acme-Verify.Example/about ");
    expect(added.status).toBe(302);
    expect(toastFrom(added)?.title).toBe("Domain added");
    const claim = (await claimOf(organizationId, "acme-verify.example"))!;
    expect(claim.status).toBe("pending");

    const page = await (await get("/dashboard/organization", admin.cookie)).text();
    expect(page).toContain("_career-passport.acme-verify.example");
    expect(page).toContain(`career-passport-verification=${claim.token}`);
    expect(page).toContain("Verify domain");

    await publish("_career-passport.acme-verify.example", `career-passport-verification=${claim.token}`);
    const verified = await verify(admin.cookie, claim.id);
    expect(verified.status).toBe(302);
    expect(toastFrom(verified)?.title).toBe("Domain verified");
    expect((await claimOf(organizationId, "acme-verify.example"))!.status).toBe("verified");
    const after = await (await get("/dashboard/organization", admin.cookie)).text();
    expect(after).toContain("did-configuration.json");
    expect(after).not.toContain("Verify domain");
  });

  it("says what it found when the record's value is another", async () => {
    const { admin, organizationId } = await adminOfNewOrganisation();
    await addDomain(admin.cookie, "wrong-value.example");
    const claim = (await claimOf(organizationId, "wrong-value.example"))!;
    await publish("_career-passport.wrong-value.example", "career-passport-verification=someone-elses-token");
    const response = await verify(admin.cookie, claim.id);
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain("The record&#x27;s value does not match");
    expect(page).toContain("career-passport-verification=someone-elses-token");
    expect((await claimOf(organizationId, "wrong-value.example"))!.status).toBe("pending");
  });

  it("says where it looked when there is no record", async () => {
    const { admin, organizationId } = await adminOfNewOrganisation();
    await addDomain(admin.cookie, "no-record.example");
    const claim = (await claimOf(organizationId, "no-record.example"))!;
    const response = await verify(admin.cookie, claim.id);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("No TXT record found at _career-passport.no-record.example.");
  });

  it("refuses what is not a domain name, keeping what was typed", async () => {
    const { admin } = await adminOfNewOrganisation();
    for (const typed of [
      "localhost",
      "10.0.0.1",
      "acme.example:8443",
      "user@acme.example",
      "-acme.example",
      "a b.example",
    ]) {
      const response = await addDomain(admin.cookie, typed);
      expect(response.status, typed).toBe(400);
      const page = await response.text();
      expect(page, typed).toContain("Enter a domain name, such as acme.example.");
      if (typed === "localhost") expect(page).toContain('value="localhost"');
    }
    expect(await env.DB.prepare("select count(*) as n from organization_domains").first("n")).toBe(0);
  });

  it("gives a domain to at most one organisation at a time", async () => {
    await verifiedOrganisation("taken.example");
    // Another organisation can neither add it nor, having added it before, verify it.
    const late = await adminOfNewOrganisation();
    const refused = await addDomain(late.admin.cookie, "taken.example");
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("This domain is verified by another organisation.");

    const early = await adminOfNewOrganisation();
    await addDomain(early.admin.cookie, "taken-later.example");
    const claim = (await claimOf(early.organizationId, "taken-later.example"))!;
    const owner = await verifiedOrganisation("taken-later.example");
    await publish("_career-passport.taken-later.example", `career-passport-verification=${claim.token}`);
    const response = await verify(early.admin.cookie, claim.id);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("This domain is verified by another organisation.");
    expect((await claimOf(early.organizationId, "taken-later.example"))!.status).toBe("pending");
    expect((await claimOf(owner.organizationId, "taken-later.example"))!.status).toBe("verified");
  });

  it("refuses a member who is not an admin, and an admin of another organisation", async () => {
    const { admin, organizationId } = await adminOfNewOrganisation();
    await addDomain(admin.cookie, "guarded.example");
    const claim = (await claimOf(organizationId, "guarded.example"))!;
    const member = await addMember(organizationId);
    expect((await addDomain(member.cookie, "member.example")).status).toBe(403);
    expect((await verify(member.cookie, claim.id)).status).toBe(403);
    const other = await adminOfNewOrganisation();
    expect((await verify(other.admin.cookie, claim.id)).status).toBe(404);
    const removed = await postForm(
      "/dashboard/organization",
      { intent: "remove-domain", domainId: claim.id },
      { cookie: other.admin.cookie },
    );
    expect(removed.status).toBe(302);
    expect(await claimOf(organizationId, "guarded.example")).not.toBeNull();
  });

  it("looks a domain up at most ten times a minute for one admin", async () => {
    const { admin, organizationId } = await adminOfNewOrganisation();
    await addDomain(admin.cookie, "hammered.example");
    const claim = (await claimOf(organizationId, "hammered.example"))!;
    const statuses = [];
    for (let attempt = 0; attempt < 11; attempt++) statuses.push((await verify(admin.cookie, claim.id)).status);
    expect(statuses.slice(0, 10).every((status) => status === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it("lets the admin remove a domain", async () => {
    const { admin, organizationId, claim } = await verifiedOrganisation("removable.example");
    const response = await postForm(
      "/dashboard/organization",
      { intent: "remove-domain", domainId: claim.id },
      { cookie: admin.cookie },
    );
    expect(response.status).toBe(302);
    expect(await claimOf(organizationId, "removable.example")).toBeNull();
  });
});

describe("what a verified domain changes", () => {
  it("offers a did-configuration.json linking the domain to the DID, whose document lists the domain", async () => {
    const { admin, organizationId, claim } = await verifiedOrganisation("linked.example");
    const download = await get(`/dashboard/organization/did-configuration/${claim.id}`, admin.cookie);
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Disposition")).toBe('attachment; filename="did-configuration.json"');
    const configuration = await download.json();
    const didDocument = (await (await get(`/orgs/${organizationId}/did.json`)).json()) as Record<string, unknown>;
    expect(didDocument.service).toEqual([
      {
        id: `${didDocument.id as string}#linked-domains`,
        type: "LinkedDomains",
        serviceEndpoint: { origins: ["https://linked.example"] },
      },
    ]);
    expect(linkedDomainsOf(didDocument)).toEqual(["linked.example"]);
    const linkage = await checkDomainLinkage(
      configuration,
      didDocument.id as string,
      "linked.example",
      async (method) => assertionKey(didDocument, method),
    );
    expect(linkage).toEqual({ linked: true, detail: "linked.example links to this issuer." });
  });

  it("names the domain as the issuer's url in the credentials given after it, which still verify", async () => {
    const { admin, organizationId } = await verifiedOrganisation("issuing.example");
    const member = await addMember(organizationId);
    const credential = await credentialJson(
      await credentialOf(await giveAndAccept(admin.cookie, member.cookie, member.id, "Domain-backed award")),
    );
    expect(credential.issuer.url).toBe("https://issuing.example");
    expect(await dccVerify(credential)).toMatchObject(verified);
  });

  it("leaves an unverified organisation's credentials without a url, and a removed domain out of its DID document", async () => {
    const { admin, organizationId, claim } = await verifiedOrganisation("dropped.example");
    await postForm(
      "/dashboard/organization",
      { intent: "remove-domain", domainId: claim.id },
      { cookie: admin.cookie },
    );
    const didDocument = (await (await get(`/orgs/${organizationId}/did.json`)).json()) as Record<string, unknown>;
    expect(didDocument.service).toBeUndefined();
    const member = await addMember(organizationId);
    const credential = await credentialJson(
      await credentialOf(await giveAndAccept(admin.cookie, member.cookie, member.id, "Plain award")),
    );
    expect(credential.issuer.url).toBeUndefined();
    expect((await get(`/dashboard/organization/did-configuration/${claim.id}`, admin.cookie)).status).toBe(404);
  });
});

describe("who stands behind a name, as pages say it", () => {
  it("names the verified domain on the credential page, /verify and the passport; an organisation of the same name is marked", async () => {
    const real = await verifiedOrganisation("oxford-like.example", "Université d'Exemple");
    const member = await addMember(real.organizationId, { name: "Vera Verified" });
    const credentialId = await credentialOf(
      await giveAndAccept(real.admin.cookie, member.cookie, member.id, "Doctorate"),
    );
    const page = await textOf(await get(`/credentials/${credentialId}`));
    expect(page).toMatch(/Issuer's domain verified: oxford-like\.example \(last checked \d+ \w+ \d{4}\)/);
    const verifyPage = await textOf(
      await postForm("/verify", { json: JSON.stringify(await credentialJson(credentialId)) }),
    );
    expect(verifyPage).toContain("Who stands behind the issuer");
    expect(verifyPage).toContain("Issuer's domain verified: oxford-like.example");
    expect(await textOf(await get(`/passport/${member.id}`))).toContain(
      "Issuer's domain verified: oxford-like.example",
    );

    // An impostor: another account names its organisation the same, bar case and accents.
    const impostor = await adminOfNewOrganisation("UNIVERSITE D'EXEMPLE");
    const victim = await addMember(impostor.organizationId, { name: "Ian Impostored" });
    const forged = await credentialOf(
      await giveAndAccept(impostor.admin.cookie, victim.cookie, victim.id, "Doctorate"),
    );
    const forgedPage = await textOf(await get(`/credentials/${forged}`));
    expect(forgedPage).toContain("Name not verified Issuer name not verified: the organisation chose this name itself");
    expect(forgedPage).not.toContain("oxford-like.example");
    // It still verifies: the signature is real, only the name is not.
    expect(forgedPage).toContain("Status: Valid");
    const forgedCheck = await textOf(await postForm("/verify", { json: JSON.stringify(await credentialJson(forged)) }));
    expect(forgedCheck).toContain("Name not verified Issuer name not verified");
    expect(await textOf(await get(`/passport/${victim.id}`))).toContain("Name not verified");

    // An organisation nobody verified and nobody imitates is simply unverified.
    const plain = await adminOfNewOrganisation();
    const plainMember = await addMember(plain.organizationId);
    const plainCredential = await credentialOf(
      await giveAndAccept(plain.admin.cookie, plainMember.cookie, plainMember.id, "Award"),
    );
    const plainPage = await textOf(await get(`/credentials/${plainCredential}`));
    expect(plainPage).toContain("Issuer name not verified: the organisation chose this name itself");
    expect(plainPage).not.toContain("Name not verified Issuer");

    // The directory search shows the domain beside the real one and the mark beside the other.
    const seeker = await createAccount();
    const directory = await textOf(await get(`/dashboard?q=${encodeURIComponent("exemple")}`, seeker.cookie));
    expect(directory).toContain("UNIVERSITE D'EXEMPLE Name not verified");
    expect(directory).toContain("Université d'Exemple Domain verified: oxford-like.example");
  });

  // Issue 43: names are compared by their skeleton (decision 092), so invisible or look-alike
  // characters make no other name; keys stored before are re-made by the daily run.
  it("marks an organisation whose name differs by a zero-width space or a Cyrillic letter, keys made earlier re-made daily", async () => {
    const real = await verifiedOrganisation("skeleton.example", "Institut Exemplaire");
    const stale = "institut exemplaire";
    await env.DB.batch([
      env.DB.prepare("update organizations set name_key = ? where id = ?").bind(stale, real.organizationId),
      env.DB.prepare("update organization_domains set name_key = ? where organization_id = ?").bind(
        stale,
        real.organizationId,
      ),
    ]);
    await runCron(Date.now());
    const keys = await env.DB.prepare(
      `select o.name_key as own, d.name_key as domain from organizations o
       join organization_domains d on d.organization_id = o.id where o.id = ?`,
    )
      .bind(real.organizationId)
      .first<{ own: string; domain: string }>();
    expect(keys).toEqual({
      own: organizationNameKey("Institut Exemplaire"),
      domain: organizationNameKey("Institut Exemplaire"),
    });

    const seeker = await createAccount();
    for (const name of ["Institut\u200B Exemplaire", "Inst\u0456tut Exemplaire"]) {
      await adminOfNewOrganisation(name);
      const directory = await textOf(await get(`/dashboard?q=${encodeURIComponent("Exemplaire")}`, seeker.cookie));
      expect(directory).toContain(`${name} Name not verified`);
    }
  });
});

describe("the daily re-check", () => {
  it("keeps a domain whose record stays, and lapses one after three failed checks in a row, telling the admins", async () => {
    const kept = await verifiedOrganisation("kept.example");
    const { admin, organizationId, claim } = await verifiedOrganisation("lapsing.example");
    await unpublish("_career-passport.lapsing.example");
    const start = Date.now() + DAY + 60_000;

    await runCron(start);
    expect(await claimOf(organizationId, "lapsing.example")).toMatchObject({ status: "verified", failedChecks: 1 });
    // A check that is not due yet is not made again the same day.
    await runCron(start + 60_000);
    expect(await claimOf(organizationId, "lapsing.example")).toMatchObject({ failedChecks: 1 });
    await runCron(start + DAY);
    expect(await claimOf(organizationId, "lapsing.example")).toMatchObject({ status: "verified", failedChecks: 2 });
    await runCron(start + 2 * DAY);
    expect(await claimOf(organizationId, "lapsing.example")).toMatchObject({ status: "lapsed", failedChecks: 3 });
    expect(await claimOf(kept.organizationId, "kept.example")).toMatchObject({ status: "verified", failedChecks: 0 });

    const notice = await env.DB.prepare("select title, message from notifications where user_id = ? and title = ?")
      .bind(admin.id, "Domain verification lapsed")
      .first<{ message: string }>();
    expect(notice?.message).toContain("lapsing.example is no longer verified");
    const mail = await env.DB.prepare(
      "select subject from dev_mail where \"to\" = ? and subject like '%lapsing.example%'",
    )
      .bind(admin.email.toLowerCase())
      .first<{ subject: string }>();
    expect(mail?.subject).toContain("is no longer verified");

    // Lapsed, it is checked no more, and the page offers to verify it again.
    await runCron(start + 3 * DAY);
    expect(await claimOf(organizationId, "lapsing.example")).toMatchObject({ status: "lapsed", failedChecks: 3 });
    expect(await (await get("/dashboard/organization", admin.cookie)).text()).toContain("Verify domain");
    expect(claim.id).toBeTruthy();
  });

  it("starts counting again after a check that finds the record", async () => {
    const { organizationId, claim } = await verifiedOrganisation("flaky.example");
    await unpublish("_career-passport.flaky.example");
    const start = Date.now() + DAY + 60_000;
    await runCron(start);
    await runCron(start + DAY);
    await publish("_career-passport.flaky.example", `career-passport-verification=${claim.token}`);
    await runCron(start + 2 * DAY);
    expect(await claimOf(organizationId, "flaky.example")).toMatchObject({ status: "verified", failedChecks: 0 });
  });
});

describe("the daily re-check at scale", () => {
  it("checks every due domain of 1,200 in one run, a page at a time, and none twice", async () => {
    const { organizationId } = await adminOfNewOrganisation();
    const due = Date.now() - 60_000;
    const rows = Array.from({ length: 1200 }, (_, index) => index);
    for (let start = 0; start < rows.length; start += 100) {
      await env.DB.batch(
        rows
          .slice(start, start + 100)
          .map((index) =>
            env.DB.prepare(
              "insert into organization_domains (id, organization_id, domain, token, status, verified_at, last_checked_at, next_check_at, created_at) values (?, ?, ?, 't', 'verified', 0, 0, ?, 0)",
            ).bind(crypto.randomUUID(), organizationId, `scale-${index}.example`, due),
          ),
      );
    }
    await runCron(Date.now());
    const counts = await env.DB.prepare(
      "select count(*) as checked, sum(failed_checks) as failures from organization_domains where organization_id = ? and next_check_at > ?",
    )
      .bind(organizationId, Date.now())
      .first<{ checked: number; failures: number }>();
    expect(counts).toEqual({ checked: 1200, failures: 1200 });
  });
});

describe("DNS over HTTPS", () => {
  it("reads TXT records from a resolver answering in the JSON form (the stand-in at /dev/dns.json)", async () => {
    const resolve = resolverOver(`${ORIGIN}/dev/dns.json`, (input, init) => SELF.fetch(input as string, init));
    await publish("_career-passport.doh.example", 'career-passport-verification=a"quoted\\value');
    await publish("_career-passport.doh.example", "v=other");
    expect(await lookupTxt(resolve, "_career-passport.DOH.example.")).toEqual({
      ok: true,
      values: ['career-passport-verification=a"quoted\\value', "v=other"],
    });
    expect(await lookupTxt(resolve, "_career-passport.nothing.example")).toEqual({ ok: true, values: [] });

    const answer = await SELF.fetch(`${ORIGIN}/dev/dns.json?name=_career-passport.doh.example&type=TXT`, {
      headers: { accept: "application/dns-json" },
    });
    expect(answer.headers.get("Content-Type")).toBe("application/dns-json");
    expect(await answer.json()).toMatchObject({
      Status: 0,
      Question: [{ name: "_career-passport.doh.example", type: 16 }],
      Answer: [{ type: 16, data: '"career-passport-verification=a\\"quoted\\\\value"' }, { type: 16 }],
    });
  });

  it("joins a long value's quoted pieces, and says so when the resolver fails", async () => {
    const answer = {
      Status: 0,
      Question: [{ name: "x.example", type: 16 }],
      Answer: [{ name: "x.example", type: 16, TTL: 60, data: '"career-passport-" "verification=abc"' }],
    };
    expect(await lookupTxt(async () => answer, "x.example")).toEqual({
      ok: true,
      values: ["career-passport-verification=abc"],
    });
    expect(await lookupTxt(async () => ({ Status: 2 }), "x.example")).toEqual({
      ok: false,
      reason: "The DNS lookup failed. Try again in a few minutes.",
    });
    const failing = resolverOver(`${ORIGIN}/no-such-resolver`, (input, init) => SELF.fetch(input as string, init));
    expect((await lookupTxt(failing, "x.example")).ok).toBe(false);
  });

  it("parses domains with the URL API", () => {
    expect(parseDomain("Bücher.Example.")).toBe("xn--bcher-kva.example");
    expect(parseDomain("https://acme.example/path?q=1")).toBe("acme.example");
    for (const bad of [
      "",
      "acme",
      "[::1]",
      "1.2.3.4",
      "acme.example:80",
      "a@acme.example",
      "acme_.example",
      "x".repeat(64) + ".example",
    ])
      expect(parseDomain(bad), bad).toBeNull();
  });
});

describe("the passports that show an organisation's domain (issue 43)", () => {
  /** Visits the passport until it comes from the edge cache; returns that page's text. */
  async function cachedPassport(userId: string) {
    await vi.waitFor(
      async () => {
        const response = await get(`/passport/${userId}`);
        await response.text();
        expect(response.headers.get("X-Passport-Cache")).toBe("HIT");
      },
      { timeout: 5000, interval: 50 },
    );
  }
  const passportText = async (userId: string) => {
    const response = await get(`/passport/${userId}`);
    expect(response.headers.get("X-Passport-Cache")).toBe("MISS");
    return textOf(response);
  };

  it("shows a domain verified, removed or lapsed on the next visit of a cached passport", async () => {
    const organisation = await adminOfNewOrganisation("Cached Issuer");
    const { admin, organizationId } = organisation;
    const member = await addMember(organizationId, { name: "Cara Cached" });
    await giveAndAccept(admin.cookie, member.cookie, member.id, "Cached award");
    await addDomain(admin.cookie, "cached-issuer.example");
    const claim = (await claimOf(organizationId, "cached-issuer.example"))!;
    await publish("_career-passport.cached-issuer.example", `career-passport-verification=${claim.token}`);

    // Verified: the cached page (no domain) gives way to one naming it.
    await cachedPassport(member.id);
    expect((await verify(admin.cookie, claim.id)).status).toBe(302);
    expect(await passportText(member.id)).toContain("Issuer's domain verified: cached-issuer.example");

    // Removed: the cached page naming it gives way to one without.
    await cachedPassport(member.id);
    await postForm(
      "/dashboard/organization",
      { intent: "remove-domain", domainId: claim.id },
      { cookie: admin.cookie },
    );
    expect(await passportText(member.id)).not.toContain("cached-issuer.example");

    // Lapsed by the daily re-check: likewise, once the third failed check lapses it.
    await addDomain(admin.cookie, "cached-issuer.example");
    const again = (await claimOf(organizationId, "cached-issuer.example"))!;
    await publish("_career-passport.cached-issuer.example", `career-passport-verification=${again.token}`);
    expect((await verify(admin.cookie, again.id)).status).toBe(302);
    await unpublish("_career-passport.cached-issuer.example");
    const start = Date.now() + DAY + 60_000;
    await runCron(start);
    await runCron(start + DAY);
    await cachedPassport(member.id);
    expect(await textOf(await get(`/passport/${member.id}`))).toContain(
      "Issuer's domain verified: cached-issuer.example",
    );
    await runCron(start + 2 * DAY);
    expect(await claimOf(organizationId, "cached-issuer.example")).toMatchObject({ status: "lapsed" });
    expect(await passportText(member.id)).not.toContain("cached-issuer.example");
  });
});
