import { env } from "cloudflare:test";
import { expect } from "vitest";
import {
  ORIGIN,
  PNG_BYTES,
  confirmationToken,
  createAccount,
  get,
  inviteCode,
  mailsTo,
  passwordResetToken,
  postForm,
  signUp,
  uniqueEmail,
} from "../helpers.ts";
import { credentialOf, giveAndAccept } from "../credentials-helpers.ts";
import { addMember, createOrganisation, giveAchievement, membershipOf } from "../factories.ts";
import { signJwt, walletKey } from "../openid4vci-wallet.ts";
import { walletDidAuth } from "../wallet-helpers.ts";

// The one world every cell of the matrix runs against: two organisations and their admins, an
// organisation account without one, members, a recipient with a pending offer and an active
// subscription, an archived account, an unconfirmed sign-up and a forgot-password link. Seeded
// once per test file; storage is rolled back after each test, so every cell starts from it.

export type World = Awaited<ReturnType<typeof seedWorld>>;

export async function seedWorld() {
  const { admin, organizationId: orgA } = await createOrganisation({ adminName: "Ada Admin", name: "Org A" });
  const { admin: otherAdmin } = await createOrganisation({ adminName: "Otto Admin", name: "Org B" });
  const gone = await createOrganisation({ adminName: "Oona Org", name: "Org Gone" });
  const orgUser = gone.admin;
  // An organisation-type account without an organisation (yet).
  await env.DB.prepare("delete from organizations where id = ?").bind(gone.organizationId).run();

  const individual = await createAccount({ name: "Ivy Individual" });
  const member = await addMember(orgA, { name: "Max Member" });
  const recipient = await addMember(orgA, { name: "Rita Recipient" });
  const another = await createAccount({ name: "Andy Another" });
  const archived = await addMember(orgA, { name: "Archie Archived" });
  const pending = await createAccount({ name: "Pat Pending" });

  expect(
    (await postForm("/dashboard", { intent: "request-join", organizationId: orgA }, { cookie: pending.cookie })).status,
  ).toBe(302);
  const give = await giveAchievement(admin.cookie, { userId: recipient.id, title: "Seeded award" });
  expect(give.response.status).toBe(302);
  // The member's accepted achievement, with its Open Badges credential.
  const credentialAchievement = await giveAndAccept(admin.cookie, member.cookie, member.id, "Credential award");
  const credential = await credentialOf(credentialAchievement);
  // 'Add to wallet' on it, through the passport's form: an open exchange (issue 31).
  const walletOpened = await postForm(
    "/passport",
    { intent: "add-to-wallet", achievementId: credentialAchievement },
    { cookie: member.cookie },
  );
  const walletExchange = new URL(walletOpened.headers.get("Location")!, "http://localhost").searchParams.get("wallet")!;
  // And the OpenID4VCI offer made with it (decision 065).
  const openid4vciOffer = (await env.DB.prepare("select id from openid4vci_grants where exchange_id = ?")
    .bind(walletExchange)
    .first<{ id: string }>())!.id;
  // 'Accept with my wallet' on the recipient's pending offer: an open 'accept' exchange (decision 066).
  const acceptOpened = await postForm(
    "/passport",
    { intent: "accept-with-wallet", achievementId: give.achievementId! },
    { cookie: recipient.cookie },
  );
  const acceptExchange = new URL(acceptOpened.headers.get("Location")!, "http://localhost").searchParams.get(
    "accept-wallet",
  )!;
  // The wallets' signed answers to both exchanges (the Learner Credential Wallet's libraries) and
  // Stripe's event for a member's checkout: the Worker endpoints' writes that succeed (issue 43).
  const challengeOf = async (id: string) =>
    (await env.DB.prepare("select challenge from wallet_exchanges where id = ?")
      .bind(id)
      .first<{ challenge: string }>())!.challenge;
  const signedBy = async (exchange: string) =>
    (await walletDidAuth({ challenge: await challengeOf(exchange), domain: "localhost" })).presentation;
  const walletPresentation = await signedBy(walletExchange);
  const acceptPresentation = await signedBy(acceptExchange);
  // OpenID4VCI: the first offer's pre-authorised code and transaction code, as a wallet reads them;
  // and a second offer taken up to its access token, with a proof of possession over a fresh nonce.
  const offerCode = await offerCodes(member.cookie, walletExchange, openid4vciOffer);
  const openid4vciCredential = await openid4vciTokenAndProof(member.cookie, credentialAchievement);
  // The member's credential was issued to a wallet DID, and its acceptance signed (rows written
  // directly: tests/workers/wallet-acceptance.test.ts signs real ones).
  const holderDid = "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK";
  await env.DB.batch([
    env.DB.prepare(
      "insert into credential_holders (id, user_id, credential_id, holder, issued_at) values (?, ?, ?, ?, ?)",
    ).bind(crypto.randomUUID(), member.id, credential, holderDid, Date.now()),
    env.DB.prepare(
      "insert into achievement_acceptances (achievement_id, user_id, holder, exchange_id, challenge, presentation, signed_at) values (?, ?, ?, ?, 'challenge', '{}', ?)",
    ).bind(credentialAchievement, member.id, holderDid, crypto.randomUUID(), Date.now()),
  ]);
  // The individual keeps a private passport; the archived account is archived (its session lives on).
  await env.DB.prepare("update profiles set is_public = 0 where id = ?").bind(individual.id).run();
  expect((await postForm("/settings/danger", { intent: "archive" }, { cookie: archived.cookie })).status).toBe(302);

  const recipientMembership = recipient.membershipId;
  // The recipient's membership has an active (simulated) subscription, paid by the admin of A, to
  // manage and cancel.
  await env.DB.prepare(
    "update organization_members set subscription_status = 'active', stripe_customer_id = 'cus_local_matrix', stripe_subscription_id = 'sub_local_matrix', subscribed_by = ? where id = ?",
  )
    .bind(admin.id, recipientMembership)
    .run();

  // An account waiting for confirmation, with its token.
  const unconfirmedEmail = uniqueEmail("unconfirmed");
  await signUp({ email: unconfirmedEmail });
  const token = (await confirmationToken(unconfirmedEmail))!;

  // A forgot-password link of another's account.
  await postForm("/auth/forgot-password", { intent: "forgot-password", email: another.email });
  const resetToken = (await passwordResetToken(another.email))!;

  // The member imported a badge (decision 069): its timeline entry, its row and its original file.
  const importedAchievement = crypto.randomUUID();
  const importOriginal = `imports/${member.id}/${crypto.randomUUID()}`;
  await env.DB.batch([
    env.DB.prepare(
      "insert into achievements (id, user_id, created_by, title, date, type, status, is_visible, created_at) values (?, ?, ?, 'Imported badge - Example Issuer', '2024-05-01', 'award', 'accepted', 1, 0)",
    ).bind(importedAchievement, member.id, member.id),
    env.DB.prepare(
      "insert into imported_credentials (id, user_id, achievement_id, import_key, format, issuer_identity, status, checked_at, original_key, original_name, original_type, created_at) values (?, ?, ?, 'matrix', 'Open Badges 2.0, hosted (JSON)', 'example.org', 'verified', 0, ?, 'badge.json', 'application/json', 0)",
    ).bind(crypto.randomUUID(), member.id, importedAchievement, importOriginal),
  ]);
  await env.MEDIA.put(importOriginal, "{}", { httpMetadata: { contentType: "application/json" } });

  const mediaKey = `avatars/${recipient.id}/avatar.png`;
  await env.MEDIA.put(mediaKey, PNG_BYTES, { httpMetadata: { contentType: "image/png" } });

  // Every active account has seen its dashboard once (which picks its active organisation).
  for (const user of [admin, otherAdmin, orgUser, individual, member, recipient, another]) {
    expect((await get("/dashboard", user.cookie)).status).toBe(200);
  }
  // Organisation A's domains: one claimed (to verify or remove), one verified (its did-configuration).
  const domainClaim = crypto.randomUUID();
  const verifiedDomain = crypto.randomUUID();
  await env.DB.batch([
    env.DB.prepare(
      "insert into organization_domains (id, organization_id, domain, token, created_at) values (?, ?, 'claimed-a.example', 'token-a', 0)",
    ).bind(domainClaim, orgA),
    env.DB.prepare(
      "insert into organization_domains (id, organization_id, domain, token, status, verified_at, last_checked_at, next_check_at, created_at) values (?, ?, 'verified-a.example', 'token-b', 'verified', 0, 0, 0, 0)",
    ).bind(verifiedDomain, orgA),
  ]);

  // A second signed-in browser of another's account (Settings lists it, and only they may end it).
  const anotherSession = crypto.randomUUID();
  await env.DB.prepare(
    "insert into sessions (id, token, user_id, expires_at, ip_address, user_agent, created_at, updated_at) values (?, ?, ?, ?, '', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0', ?, ?)",
  )
    .bind(anotherSession, crypto.randomUUID(), another.id, Date.now() + 24 * 60 * 60 * 1000, Date.now(), Date.now())
    .run();

  // A passkey of another's account (Settings lists it, and only they may rename or remove it).
  const anotherPasskey = crypto.randomUUID();
  await env.DB.prepare(
    "insert into passkeys (id, public_key, user_id, credential_id, counter, device_type, backed_up, created_at) values (?, 'key', ?, ?, 0, 'singleDevice', 0, ?)",
  )
    .bind(anotherPasskey, another.id, crypto.randomUUID(), Date.now())
    .run();
  // Added from Settings, the passkey would leave the session that added it as having used it
  // (decision 089), which may then change the account's sign-in methods.
  await env.DB.prepare("update sessions set strong_factor = 'passkey' where user_id = ? and id != ?")
    .bind(another.id, anotherSession)
    .run();

  // Another's other e-mail address, pending, with the link mailed to it (decision 068).
  const otherAddress = uniqueEmail("other-address");
  await postForm(
    "/settings/addresses",
    { intent: "add-other-address", address: otherAddress },
    { cookie: another.cookie },
  );
  const [otherAddressMail] = await mailsTo(otherAddress);
  const otherAddressToken = new URL(/(https?:\/\/\S+)/.exec(otherAddressMail!.text)![1]!).searchParams.get("token")!;
  const otherAddressId = (await env.DB.prepare("select id from other_addresses where user_id = ?")
    .bind(another.id)
    .first<{ id: string }>())!.id;

  // Another endorsed the member's credential award (decision 072): pending the member's answer.
  const endorsed = await postForm(
    `/passport/${member.id}/endorse/${credentialAchievement}`,
    { intent: "endorse", as: "person", comment: "Seeded endorsement" },
    { cookie: another.cookie },
  );
  expect(endorsed.status).toBe(302);
  const endorsement = (await env.DB.prepare("select id from endorsements where achievement_id = ?")
    .bind(credentialAchievement)
    .first<{ id: string }>())!.id;

  const users = { individual, orgUser, member, admin, otherAdmin, recipient, another, archived };
  return {
    users,
    orgA,
    inviteCode: await inviteCode(orgA),
    token,
    resetToken,
    unconfirmedEmail,
    anotherSession,
    anotherPasskey,
    otherAddressId,
    otherAddressToken,
    endorsement,
    mediaKey,
    importedAchievement,
    pendingMembership: await membershipOf({ organizationId: orgA, userId: pending.id }),
    memberMembership: member.membershipId,
    recipientMembership,
    credential,
    credentialAchievement,
    walletExchange,
    openid4vciOffer,
    acceptExchange,
    walletPresentation,
    acceptPresentation,
    offerCode,
    openid4vciCredential,
    // A member's subscription checkout completed, as Stripe sends it (signed when the cell sends it).
    stripeCheckout: {
      id: `evt_${crypto.randomUUID()}`,
      object: "event",
      type: "checkout.session.completed",
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          object: "checkout.session",
          mode: "subscription",
          status: "complete",
          payment_status: "paid",
          subscription: "sub_matrix_checkout",
          customer: "cus_matrix_checkout",
          metadata: { organizationId: orgA, memberUserId: member.id, adminUserId: admin.id },
        },
      },
    },
    holderDid,
    domainClaim,
    verifiedDomain,
    credentialJson: (await env.DB.prepare("select json from credentials where id = ?")
      .bind(credential)
      .first<{ json: string }>())!.json,
    statusList: (await env.DB.prepare("select status_list_id as id from credentials where id = ?")
      .bind(credential)
      .first<{ id: string }>())!.id,
    pendingAchievement: give.achievementId!,
    recipientNotification: (await env.DB.prepare("select id from notifications where user_id = ?")
      .bind(recipient.id)
      .first<{ id: string }>())!.id,
  };
}

const PRE_AUTHORIZED = "urn:ietf:params:oauth:grant-type:pre-authorized_code";

/** An offer's pre-authorised code (from its JSON) and transaction code (shown to its person on /passport). */
async function offerCodes(cookie: string, exchange: string, offer: string) {
  const json = (await (await get(`/openid4vci/offers/${offer}`)).json()) as {
    grants: Record<string, { "pre-authorized_code": string }>;
  };
  const page = await (await get(`/passport?wallet=${exchange}`, cookie)).text();
  return {
    preAuthorizedCode: json.grants[PRE_AUTHORIZED]!["pre-authorized_code"],
    txCode: /<strong[^>]*>(\d{6})<\/strong>/.exec(page)![1]!,
  };
}

/** A second 'Add to wallet' offer taken up to its access token, and a proof JWT over a fresh nonce. */
async function openid4vciTokenAndProof(cookie: string, achievementId: string) {
  const opened = await postForm("/passport", { intent: "add-to-wallet", achievementId }, { cookie });
  const exchange = new URL(opened.headers.get("Location")!, ORIGIN).searchParams.get("wallet")!;
  const offer = (await env.DB.prepare("select id from openid4vci_grants where exchange_id = ?")
    .bind(exchange)
    .first<{ id: string }>())!.id;
  const { preAuthorizedCode, txCode } = await offerCodes(cookie, exchange, offer);
  const token = await postForm("/openid4vci/token", {
    grant_type: PRE_AUTHORIZED,
    "pre-authorized_code": preAuthorizedCode,
    tx_code: txCode,
  });
  const { access_token: accessToken } = (await token.json()) as { access_token: string };
  const nonce = await postForm("/openid4vci/nonce", {});
  const { c_nonce: cNonce } = (await nonce.json()) as { c_nonce: string };
  const key = await walletKey("EdDSA");
  const proof = await signJwt(
    key,
    { typ: "openid4vci-proof+jwt", alg: key.alg, kid: key.kid },
    { aud: ORIGIN, iat: Math.floor(Date.now() / 1000), nonce: cNonce },
  );
  return { accessToken, proof };
}
