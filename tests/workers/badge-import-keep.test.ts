import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readPersonData } from "#app/services/data-export.server.ts";
import { OTHER_ADDRESS } from "#app/services/imports/import-result.ts";
import { DOMAIN_VERIFIED_TEXT, IMPORTED_NAME_NOT_VERIFIED_TEXT } from "#app/utils/issuer-identity.ts";
import { readEnv } from "#app/utils/env.server.ts";
import { invalidatePassports } from "#app/utils/passport-cache.server.ts";
import { createDb } from "#db/client.ts";
import { organizationNameKey } from "#db/queries/organizations.ts";
import { countRows, createAccount, get, mailsTo, ORIGIN, postForm, toastFrom, uniqueEmail } from "./helpers.ts";
import { credentialJson, issuedCredential } from "./credentials-helpers.ts";
import {
  addOnPage,
  bakedPng,
  checkOnPage,
  htmlDecode,
  outsideCredential,
  outsideJwt,
  outsideOpenBadge2,
  webIssuerCredential,
} from "./import-helpers.ts";

// Issue 32, "Import a badge or credential" kept on the passport: /passport/import checks first and
// saves nothing; 'Add to passport' verifies again and writes one timeline entry, once; the owner
// hides, shows, deletes it and gets the original back; the public passport shows only what verifies.

const check = checkOnPage;
const add = addOnPage;

const importsOf = (userId: string) =>
  countRows("select count(*) as n from imported_credentials where user_id = ?", userId);
const entriesOf = (userId: string) => countRows("select count(*) as n from achievements where user_id = ?", userId);

async function importedEntry(userId: string) {
  return env.DB.prepare(
    "select a.id, a.title, a.type, a.date, a.image_url as image, i.status, i.issuer_identity as issuer, i.original_key as originalKey from achievements a join imported_credentials i on i.achievement_id = a.id where a.user_id = ?",
  )
    .bind(userId)
    .first<{
      id: string;
      title: string;
      type: string;
      date: string;
      image: string;
      status: string;
      issuer: string;
      originalKey: string;
    }>();
}

describe("/passport/import", () => {
  it("shows each check before anything is saved, then adds the badge to the passport once", async () => {
    const person = await createAccount({ name: "Ines Importer" });
    const made = await outsideCredential({
      email: person.email,
      webHost: "academy.example",
      achievementType: "Course",
    });
    const checked = await check(person.cookie, { source: JSON.stringify(made.credential) });
    expect(checked.response.status).toBe(200);
    expect(checked.html).toContain("Every check passed.");
    expect(checked.html).toContain(`Issued to your address ${person.email}.`);
    expect(checked.html).toContain("Listed in the DID document of did:web:academy.example.");
    expect(checked.nonce).not.toBeNull();
    expect(await entriesOf(person.id)).toBe(0);

    const added = await add(person.cookie, checked.nonce!);
    expect(added.status).toBe(302);
    expect(added.headers.get("Location")).toBe("/passport");
    expect(toastFrom(added)).toMatchObject({ title: "Credential added" });
    expect(await importedEntry(person.id)).toMatchObject({
      title: "Open Source Contributor - Example Badge Issuer",
      type: "training",
      date: "2024-05-01",
      image: "https://badges.example/oss.png",
      status: "verified",
      issuer: "academy.example",
    });

    // A second submit of the same form (or the same badge checked again) adds nothing.
    expect(toastFrom(await add(person.cookie, checked.nonce!))).toMatchObject({ title: "Already on your passport" });
    const again = await check(person.cookie, { source: JSON.stringify(made.credential) });
    await add(person.cookie, again.nonce!);
    expect(await importsOf(person.id)).toBe(1);
    expect(await entriesOf(person.id)).toBe(1);

    const own = htmlDecode(await (await get("/passport", person.cookie)).text());
    expect(own).toContain("Imported credential");
    expect(own).toContain("Issuer: academy.example");
    const publicPage = htmlDecode(await (await get(`/passport/${person.id}`)).text());
    expect(publicPage).toContain("Open Source Contributor");
    expect(publicPage).toContain("Imported credential");
    // Issue 43: a did:web whose DID configuration links no domain has only the name it chose.
    expect(publicPage).not.toContain('aria-label="Verified credential"');
    expect(publicPage).toContain(IMPORTED_NAME_NOT_VERIFIED_TEXT);
  });

  it("refuses what fails a check with its reason, and saves nothing", async () => {
    const person = await createAccount();
    const made = await outsideCredential({ email: "someone.else@example.com" });
    const checked = await check(person.cookie, { source: JSON.stringify(made.credential) });
    expect(checked.response.status).toBe(200);
    expect(checked.html).toContain("This cannot be imported");
    expect(checked.html).toContain(OTHER_ADDRESS);
    expect(checked.nonce).toBeNull();
    const unsupported = await check(person.cookie, { source: '{"hello":"world"}' });
    expect(unsupported.html).toContain("This is neither an Open Badges assertion (2.0)");
    expect(await entriesOf(person.id)).toBe(0);
    expect((await env.MEDIA.list({ prefix: `imports/${person.id}/` })).objects).toHaveLength(0);
  });

  it("accepts a badge issued to one of the person's other addresses once they confirmed it in Settings", async () => {
    const person = await createAccount();
    const address = uniqueEmail("former-job");
    const made = await outsideCredential({ email: address });
    const source = JSON.stringify(made.credential);
    expect(
      (await postForm("/settings/addresses", { intent: "add-other-address", address }, { cookie: person.cookie }))
        .status,
    ).toBe(302);
    // Added, not yet confirmed: not theirs yet.
    expect((await check(person.cookie, { source })).html).toContain(OTHER_ADDRESS);
    const [mail] = await mailsTo(address, "Confirm your email address for%");
    const token = new URL(
      /(https?:\/\/\S+\/settings\/addresses\/confirm\?token=\S+)/.exec(mail!.text)![1]!,
    ).searchParams.get("token")!;
    expect((await postForm("/settings/addresses/confirm", { token }, { cookie: person.cookie })).status).toBe(302);
    const confirmed = await check(person.cookie, { source });
    expect(confirmed.html).not.toContain(OTHER_ADDRESS);
    expect(confirmed.nonce).not.toBeNull();
  });

  it("asks for a file or a paste, keeping what was typed, and refuses more than 5 MB", async () => {
    const person = await createAccount();
    const empty = await check(person.cookie, {});
    expect(empty.response.status).toBe(400);
    expect(empty.html).toContain("Choose a badge file or paste its JSON, JWT or address.");
    const big = await check(person.cookie, { file: new File([new Uint8Array(5 * 1024 * 1024 + 1)], "big.png") });
    expect(big.html).toContain("The file is larger than 5 MB");
    expect(await entriesOf(person.id)).toBe(0);
  });

  it("adds a baked image, offers the original back to its owner only, and deletes it with the entry", async () => {
    const person = await createAccount();
    const other = await createAccount();
    const { assertion } = await outsideOpenBadge2({ email: person.email, host: "keep-png.example" });
    const png = await bakedPng(JSON.stringify(assertion));
    const checked = await check(person.cookie, { file: new File([png], "robotics.png", { type: "image/png" }) });
    expect(checked.html).toContain("Matches the copy its issuer hosts at keep-png.example.");
    expect((await add(person.cookie, checked.nonce!)).status).toBe(302);
    const entry = (await importedEntry(person.id))!;

    const original = await get(`/passport/imports/${entry.id}/original`, person.cookie);
    expect(original.status).toBe(200);
    expect(original.headers.get("Content-Disposition")).toBe('attachment; filename="robotics.png"');
    expect(new Uint8Array(await original.arrayBuffer())).toEqual(png);
    expect((await get(`/passport/imports/${entry.id}/original`, other.cookie)).status).toBe(404);
    expect((await get(`/media/${entry.originalKey}`)).status).toBe(404);

    // The data export lists it with its original.
    const data = await readPersonData({ db: createDb(env.DB), env: {} as never, cloudflare: {} as never }, person.id);
    expect(data.imports).toMatchObject([{ achievementId: entry.id, issuerIdentity: "keep-png.example" }]);

    // Hidden and shown like a self achievement.
    const hidden = await postForm(
      "/passport",
      { intent: "set-visibility", achievementId: entry.id, visible: "false" },
      { cookie: person.cookie },
    );
    expect(toastFrom(hidden)).toMatchObject({ title: "Achievement hidden" });
    expect(await (await get(`/passport/${person.id}`)).text()).not.toContain("Awesome Robotics Badge");

    expect(
      (await postForm("/passport", { intent: "delete-import", achievementId: entry.id }, { cookie: other.cookie }))
        .status,
    ).toBe(404);
    const deleted = await postForm(
      "/passport",
      { intent: "delete-import", achievementId: entry.id },
      { cookie: person.cookie },
    );
    expect(toastFrom(deleted)).toMatchObject({ title: "Credential deleted" });
    expect(await entriesOf(person.id)).toBe(0);
    expect(await env.MEDIA.head(entry.originalKey)).toBeNull();
  });

  it("keeps an expired badge as Expired, and a revoked one leaves the public passport", async () => {
    const person = await createAccount();
    const made = await outsideCredential({ email: person.email, validUntil: "2025-01-31T00:00:00Z" });
    const checked = await check(person.cookie, { source: JSON.stringify(made.credential) });
    expect(checked.html).toContain("it has expired");
    await add(person.cookie, checked.nonce!);
    const entry = (await importedEntry(person.id))!;
    expect(entry.status).toBe("expired");
    const publicPage = await (await get(`/passport/${person.id}`)).text();
    expect(publicPage).toContain("Expired");
    expect(publicPage).not.toContain('aria-label="Verified credential"');

    await env.DB.prepare("update imported_credentials set status = 'revoked', revoked_at = ? where achievement_id = ?")
      .bind(Date.parse("2026-03-02T10:00:00Z"), entry.id)
      .run();
    await invalidatePassports(readEnv({ ...env }), person.id);
    expect(await (await get(`/passport/${person.id}`)).text()).not.toContain("Open Source Contributor");
    expect(await (await get("/passport", person.cookie)).text()).toContain("Revoked by the issuer on 2 March 2026");
  });
});

// Issue 43, Medium 2: an imported card shows the verified mark, and says "verified", only beside
// an issuer whose identity is established: one of our organisations with a verified domain, or a
// did:web whose DID configuration links a domain to it. Any other name is the issuer's own choice,
// said so, and marked "Name not verified" when an organisation with a verified domain has it.

/** The public passport's card of the imported entry, rendered afresh (one D1 round trip). */
async function importedCard(userId: string) {
  await invalidatePassports(readEnv({ ...env }), userId);
  const response = await SELF.fetch(`${ORIGIN}/passport/${userId}`, { headers: { "X-Passport-Refresh": "1" } });
  expect(response.headers.get("X-D1-Round-Trips")).toBe("1");
  // React's text separators left out, so that a line reads as a reader sees it.
  const html = htmlDecode(await response.text()).replace(/<!-- -->/g, "");
  const card = html.split("<article").find((part) => part.includes("Imported credential"));
  expect(card, "no imported card on the public passport").toBeDefined();
  return card!.slice(0, card!.indexOf("</article>"));
}

async function importAs(person: { cookie: string }, source: { source?: string; file?: File }) {
  const checked = await checkOnPage(person.cookie, source);
  expect(checked.nonce, checked.html.slice(0, 2000)).not.toBeNull();
  expect((await addOnPage(person.cookie, checked.nonce!)).status).toBe(302);
  // The check's page, which says who stands behind the issuer's name before anything is added.
  return checked.html.replace(/<!-- -->/g, "");
}

/** An organisation here whose domain is verified, named `name` (its name key folded as ours are). */
async function verifiedOrganisation(name: string, domain: string, organizationId: string = crypto.randomUUID()) {
  await env.DB.prepare(
    "insert or ignore into organizations (id, name, name_key, invite_code, created_at) values (?, ?, ?, ?, 0)",
  )
    .bind(organizationId, name, organizationNameKey(name), crypto.randomUUID())
    .run();
  await env.DB.prepare(
    "insert into organization_domains (id, organization_id, domain, token, status, name_key, verified_at, last_checked_at, created_at) select ?, id, ?, 't', 'verified', coalesce(name_key, lower(name)), 0, ?, 0 from organizations where id = ?",
  )
    .bind(crypto.randomUUID(), domain, Date.parse("2026-11-20T00:00:00Z"), organizationId)
    .run();
}

const VERIFIED_MARK = 'aria-label="Verified credential"';

describe("who stands behind an imported credential's issuer name (issue 43)", () => {
  it.each([
    [
      "a did:key issuer",
      async (email: string) => ({ source: JSON.stringify((await outsideCredential({ email })).credential) }),
    ],
    ["a VC-JWT's did:key issuer", async (email: string) => ({ source: (await outsideJwt({ email })).token })],
    [
      "an Open Badges 2.0 issuer on its own host",
      async (email: string) => ({
        source: JSON.stringify(
          (await outsideOpenBadge2({ email, host: `ob2-${crypto.randomUUID().slice(0, 8)}.example` })).assertion,
        ),
      }),
    ],
    [
      "a did:web issuer whose DID document links no domain",
      async (email: string) => ({
        source: JSON.stringify((await webIssuerCredential({ email, host: "nolink.example" })).credential),
      }),
    ],
    [
      "a did:web issuer whose linked domain's DID configuration names another DID",
      async (email: string) => ({
        source: JSON.stringify(
          (
            await webIssuerCredential({
              email,
              host: "claims.example",
              linkedDomains: ["claims.example"],
              linkedBy: "another DID",
            })
          ).credential,
        ),
      }),
    ],
  ])("shows no verified mark beside %s, and says the issuer chose its name", async (_case, make) => {
    const person = await createAccount();
    expect(await importAs(person, await make(person.email))).toContain(IMPORTED_NAME_NOT_VERIFIED_TEXT);
    const card = await importedCard(person.id);
    expect(card).not.toContain(VERIFIED_MARK);
    expect(card).not.toContain(DOMAIN_VERIFIED_TEXT);
    expect(card).toContain(IMPORTED_NAME_NOT_VERIFIED_TEXT);
    expect(card).not.toContain("Name not verified<");
  });

  it("shows the mark and the domain beside a did:web issuer whose DID configuration links its domain", async () => {
    const person = await createAccount();
    const { credential } = await webIssuerCredential({
      email: person.email,
      host: "university.example",
      issuerName: "University of Example Web",
      linkedDomains: ["university.example"],
    });
    const preview = await importAs(person, { source: JSON.stringify(credential) });
    expect(preview).toContain(`${DOMAIN_VERIFIED_TEXT}: <span class="font-medium">university.example</span>`);
    expect(preview).not.toContain(IMPORTED_NAME_NOT_VERIFIED_TEXT);
    const row = await env.DB.prepare(
      "select issuer_domain as domain, issuer_name_key as nameKey from imported_credentials where user_id = ?",
    )
      .bind(person.id)
      .first();
    expect(row).toEqual({ domain: "university.example", nameKey: organizationNameKey("University of Example Web") });
    const card = await importedCard(person.id);
    expect(card).toContain("University of Example Web");
    expect(card).toContain(VERIFIED_MARK);
    expect(card).toContain(`${DOMAIN_VERIFIED_TEXT}: <span class="font-medium">university.example</span>`);
    expect(card).not.toContain(IMPORTED_NAME_NOT_VERIFIED_TEXT);
  });

  it("marks an issuer's name that a domain-verified organisation has, also when that organisation verifies later", async () => {
    const person = await createAccount();
    await verifiedOrganisation("University of Copycats", `copycats-${crypto.randomUUID().slice(0, 8)}.ac.uk`);
    const first = await webIssuerCredential({
      email: person.email,
      host: "copy1.example",
      issuerName: "UNIVERSITY of  Cöpycats",
    });
    expect(await importAs(person, { source: JSON.stringify(first.credential) })).toContain("Name not verified<");
    let card = await importedCard(person.id);
    expect(card).toContain("Name not verified<");
    expect(card).toContain(IMPORTED_NAME_NOT_VERIFIED_TEXT);
    expect(card).not.toContain(VERIFIED_MARK);

    // Another person's badge from an issuer named like an organisation that verifies its domain only afterwards.
    const other = await createAccount();
    const later = await webIssuerCredential({
      email: other.email,
      host: "copy2.example",
      issuerName: "Later Institute",
    });
    await importAs(other, { source: JSON.stringify(later.credential) });
    expect(await importedCard(other.id)).not.toContain("Name not verified<");
    await verifiedOrganisation("Later Institute", `later-${crypto.randomUUID().slice(0, 8)}.ac.uk`);
    card = await importedCard(other.id);
    expect(card).toContain("Name not verified<");
    expect(card).not.toContain(VERIFIED_MARK);
  });

  it("shows the mark beside one of our organisations only once its domain is verified, read when shown", async () => {
    const { member, organizationId, credentialId } = await issuedCredential({ title: "Imported Back" });
    await importAs(member, { source: JSON.stringify(await credentialJson(credentialId)) });
    let card = await importedCard(member.id);
    expect(card).not.toContain(VERIFIED_MARK);
    expect(card).toContain(IMPORTED_NAME_NOT_VERIFIED_TEXT);
    await verifiedOrganisation("(already made)", "issuers-own.example", organizationId);
    card = await importedCard(member.id);
    expect(card).toContain(VERIFIED_MARK);
    expect(card).toContain(`${DOMAIN_VERIFIED_TEXT}: <span class="font-medium">issuers-own.example</span>`);
  });
});
