import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { organizationNameKey } from "#db/queries/organizations.ts";
import worker from "#workers/test-app.ts";
import { issueDemoCredentials } from "#app/services/credentials/demo.server.ts";
import { checkDomainLinkage, didConfigurationUrl } from "#app/services/credentials/domain-linkage.server.ts";
import { issuing } from "#app/services/credentials/issuer.server.ts";
import { assertionKey } from "#app/services/credentials/did-web.server.ts";
import { verifierFor, verifyCredential } from "#app/services/credentials/verify.server.ts";
import { readEnv } from "#app/utils/env.server.ts";
import { PUBLIC_PASSPORT_INITIAL_ENTRIES } from "#app/utils/constants.ts";
import { DOMAIN_VERIFIED_TEXT } from "#app/utils/issuer-identity.ts";
import { createDb } from "#db/client.ts";
import { DEMO_ACHIEVEMENTS, DEMO_ORGANISATION } from "#db/demo-data.ts";
import { DEMO_ORGANISATION_ID, DEMO_PASSWORD, DEMO_USERS, seed } from "#db/seed.ts";
import { dccVerify, verified, type Credential } from "./credentials-helpers.ts";
import { get, ORIGIN, postForm, signIn } from "./helpers.ts";

const DOMAIN = DEMO_ORGANISATION.domain;
const DAY = 24 * 60 * 60 * 1000;

/** What `npm run db:seed` (scripts/seed.ts) does: the demo rows, then their credentials, with the app's settings. */
async function seedDemo() {
  const db = createDb(env.DB);
  await seed(db);
  const signer = issuing(db, readEnv({ ...env }))!;
  await issueDemoCredentials(signer, { organizationId: DEMO_ORGANISATION_ID, domain: DOMAIN });
  return signer;
}

const counts = async () =>
  env.DB.prepare(
    `select (select count(*) from users) as users, (select count(*) from accounts) as accounts,
       (select count(*) from profiles) as profiles, (select count(*) from organizations) as organizations,
       (select count(*) from organization_roles) as roles, (select count(*) from organization_members) as members,
       (select count(*) from achievements) as achievements, (select count(*) from credentials) as credentials,
       (select count(*) from credential_status_lists) as statusLists, (select count(*) from organization_keys) as keys,
       (select count(*) from organization_domains) as domains, (select count(*) from dev_dns_records) as dnsRecords,
       (select count(*) from dev_web_documents) as webDocuments`,
  ).first();

/** The demo organisation's accepted achievements, with their credential (null without one). */
const acceptedOfOrganisation = async () =>
  (
    await env.DB.prepare(
      `select a.id, a.user_id as userId, c.id as credentialId, c.json from achievements a
       left join credentials c on c.achievement_id = a.id
       where a.organization_id = ? and a.status = 'accepted' order by a.created_at`,
    )
      .bind(DEMO_ORGANISATION_ID)
      .all<{ id: string; userId: string; credentialId: string | null; json: string | null }>()
  ).results;

/** A page's text as a reader sees it (tags gone, entities read). */
const textOf = (html: string) =>
  html
    .replace(/<!--.*?-->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, " ");
const domainVerified = `${DOMAIN_VERIFIED_TEXT}: ${DOMAIN}`;
const marksOn = (html: string) => textOf(html).split(domainVerified).length - 1;

describe("seed", () => {
  it("creates the demo world once, however often it runs", async () => {
    await seedDemo();
    const first = await counts();
    await seedDemo();
    expect(await counts()).toEqual(first);
    expect(first).toMatchObject({ users: 4, organizations: 1, members: 4, domains: 1, dnsRecords: 1, keys: 1 });
    expect(first).toMatchObject({ credentials: (await acceptedOfOrganisation()).length, statusLists: 1 });

    const alexPublic = await env.DB.prepare(
      "select count(*) as n from achievements where user_id = ? and status = 'accepted' and is_visible = 1",
    )
      .bind(DEMO_USERS.alex.id)
      .first<{ n: number }>();
    expect(alexPublic?.n).toBeGreaterThan(8);
  });

  it("prints credentials that really sign in", async () => {
    await seed(createDb(env.DB));
    // Through the sign-in form, the only way in since the JSON sign-in is no longer served.
    const response = await signIn(DEMO_USERS.admin.email, DEMO_PASSWORD);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
    expect(response.headers.get("Set-Cookie")).toContain("session_token");
  });

  it("gives the demo organisation a verified domain that its DNS record keeps verified", async () => {
    await seedDemo();
    const domain = () =>
      env.DB.prepare("select * from organization_domains where organization_id = ?")
        .bind(DEMO_ORGANISATION_ID)
        .first<Record<string, number | string | null>>();
    const seeded = (await domain())!;
    expect(seeded).toMatchObject({
      domain: DOMAIN,
      status: "verified",
      name_key: organizationNameKey("Northwind Health"),
      failed_checks: 0,
    });
    expect(Number(seeded.next_check_at) - Number(seeded.last_checked_at)).toBe(DAY);
    const record = await (await get(`/dev/dns.json`)).json();
    expect(JSON.stringify(record)).toContain(`career-passport-verification=${seeded.token}`);

    // The daily re-check, once due, finds the record in the DNS stand-in.
    const ctx = createExecutionContext();
    const at = Number(seeded.next_check_at) + 60_000;
    await worker.scheduled(createScheduledController({ scheduledTime: at, cron: "0 3 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await domain()).toMatchObject({ status: "verified", failed_checks: 0, last_checked_at: at });

    // The DID document lists the domain, and the did-configuration.json published on it links back.
    const didDocument = (await (await get(`/orgs/${DEMO_ORGANISATION_ID}/did.json`)).json()) as Credential;
    expect(didDocument.service[0].serviceEndpoint.origins).toEqual([`https://${DOMAIN}`]);
    const published = await env.DB.prepare("select body from dev_web_documents where url = ?")
      .bind(didConfigurationUrl(DOMAIN))
      .first<{ body: string }>();
    const linkage = await checkDomainLinkage(JSON.parse(published!.body), didDocument.id, DOMAIN, async (method) =>
      assertionKey(didDocument, method),
    );
    expect(linkage).toEqual({ linked: true, detail: `${DOMAIN} links to this issuer.` });
  });

  it("issues a credential for each accepted achievement the organisation gave, naming its domain, that verifies", async () => {
    const signer = await seedDemo();
    const accepted = await acceptedOfOrganisation();
    // Alex's five and Sam's recognition history; Sam's pending one has none.
    expect(accepted).toHaveLength(10);
    const pending = await env.DB.prepare(
      "select count(*) as n from credentials c join achievements a on a.id = c.achievement_id where a.status <> 'accepted'",
    ).first<{ n: number }>();
    expect(pending?.n).toBe(0);
    for (const { json } of accepted) {
      const credential = JSON.parse(json!) as Credential;
      expect(credential.issuer).toMatchObject({ name: DEMO_ORGANISATION.name, url: `https://${DOMAIN}` });
      const result = await verifyCredential(credential, verifierFor(signer, "test"));
      expect(result.verdict).toBe("Valid");
      expect(result.issuer?.identity.verifiedDomain?.domain).toBe(DOMAIN);
    }
    // And an outside verifier agrees (the Digital Credentials Consortium's verifier-core).
    expect(await dccVerify(JSON.parse(accepted[0]!.json!))).toMatchObject(verified);
  });

  it("lets alex@example.com's passport, the credential page and /verify tell the whole story", async () => {
    await seedDemo();
    const [first] = (await acceptedOfOrganisation()).filter((row) => row.userId === DEMO_USERS.alex.id);
    const passport = await (await get(`/passport/${DEMO_USERS.alex.id}`)).text();
    expect(marksOn(passport)).toBeGreaterThan(0);

    const page = textOf(await (await get(`/credentials/${first!.credentialId}`)).text());
    expect(page).toContain("Status: Valid");
    expect(page).toContain(domainVerified);

    const checked = await postForm("/verify", { json: first!.json! });
    expect(checked.status).toBe(200);
    const answer = textOf(await checked.text());
    expect(answer).toContain("Status: Valid");
    expect(answer).toContain(domainVerified);
    expect(JSON.parse(first!.json!).id).toBe(`${ORIGIN}/credentials/${first!.credentialId}`);
  });

  it("shows on the landing page's demo passport the marks the seeded passport has", async () => {
    await seedDemo();
    const landing = await (await get("/")).text();
    const passport = await (await get(`/passport/${DEMO_USERS.alex.id}`)).text();
    // Both show the first entries of the same timeline (db/demo-data.ts, newest first): the
    // organisation's carry the mark.
    const shown = DEMO_ACHIEVEMENTS.slice(0, PUBLIC_PASSPORT_INITIAL_ENTRIES).filter((item) => item.fromOrganisation);
    expect(shown.length).toBeGreaterThan(0);
    expect(marksOn(landing)).toBe(shown.length);
    expect(marksOn(passport)).toBe(shown.length);
    expect(textOf(await (await get("/?demo=all")).text())).toContain(domainVerified);
  });
});
