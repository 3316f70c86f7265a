import Stripe from "stripe";
import { env } from "cloudflare:test";
import { PASSWORD, mp4Bytes, uniqueEmail } from "../helpers.ts";
import { today } from "#tests/today.ts";
import {
  ADMIN_OF_A,
  ANONYMOUS,
  OWN,
  PUBLIC,
  RECIPIENT,
  actionRow,
  cells,
  checkoutEvent,
  forge,
  form,
  loaderRow,
  multipart,
  png,
  type Body,
  type Caller,
  type Outcome,
  type Row,
} from "./table.ts";
import type { World } from "./world.ts";

// The authorization matrix's table (issue 9, items 1 and 5): every loader and action intent of
// every route module and every Hono route, with what each kind of caller gets.

export const ROWS: Row[] = [
  // ---- Public pages and redirects ----
  loaderRow({ route: "routes/_index", path: "/", ok: [200], cells: PUBLIC }),
  loaderRow({ route: "routes/$", path: "/no-such-page", ok: [404], cells: PUBLIC }),
  loaderRow({ route: "routes/auth_.signout", path: "/auth/signout", ok: [302], cells: PUBLIC }),
  loaderRow({ route: "routes/preferences", path: "/preferences", ok: [302], cells: PUBLIC }),
  loaderRow({ route: "routes/organizations.active", path: "/organizations/active", ok: [302], cells: PUBLIC }),
  loaderRow({ route: "routes/profile.media", path: "/profile/media", ok: [302], cells: PUBLIC }),
  loaderRow({ route: "routes/auth_.confirm", path: (w) => `/auth/confirm?token=${w.token}`, ok: [200], cells: PUBLIC }),
  loaderRow({ route: "routes/join.$organizationId", path: (w) => `/join/${w.orgA}`, ok: [200], cells: PUBLIC }),
  // Local stand-ins: served outside production only (404 there, see requireDevelopment).
  loaderRow({ route: "routes/dev.mail", path: "/dev/mail", ok: [200], cells: PUBLIC }),
  loaderRow({ route: "routes/dev.mail[.json]", path: "/dev/mail.json", ok: [200], cells: PUBLIC }),
  loaderRow({ route: "routes/dev.dns[.json]", path: "/dev/dns.json", ok: [200], cells: PUBLIC }),
  loaderRow({ route: "routes/dev.web[.json]", path: "/dev/web.json", ok: [200], cells: PUBLIC }),
  // The D1 export API's stand-in: without the configured token, nothing for anyone.
  loaderRow({ route: "routes/dev.cloudflare.$", path: "/dev/cloudflare/d1-export.sql", ok: [404], cells: PUBLIC }),
  actionRow({
    route: "routes/dev.cloudflare.$",
    path: "/dev/cloudflare/client/v4/accounts/0123456789abcdef0123456789abcdef/d1/database/db/export",
    body: { json: { output_format: "polling" } },
    ok: [403],
    cells: PUBLIC,
  }),
  actionRow({
    route: "routes/dev.dns[.json]",
    path: "/dev/dns.json",
    body: { json: { name: "_career-passport.matrix.example", type: "TXT", data: "anything" } },
    ok: [201],
    cells: PUBLIC,
  }),
  actionRow({
    route: "routes/dev.web[.json]",
    path: "/dev/web.json",
    body: { json: { url: "https://matrix.example/.well-known/did-configuration.json", body: "{}" } },
    ok: [201],
    cells: PUBLIC,
  }),
  actionRow({
    route: "routes/preferences",
    intent: "cookie-consent",
    path: "/preferences",
    body: form({ intent: "cookie-consent", value: "accepted", redirectTo: "/privacy" }),
    ok: [302],
    cells: PUBLIC,
  }),
  actionRow({
    route: "routes/auth_.signout",
    path: "/auth/signout",
    body: form({}),
    ok: [302],
    cells: PUBLIC,
  }),

  // ---- Passports ----
  loaderRow({
    route: "routes/passport.$userId",
    intent: "public passport",
    path: (w) => `/passport/${w.users.recipient.id}`,
    ok: [200],
    cells: PUBLIC,
  }),
  loaderRow({
    route: "routes/passport.$userId",
    intent: "private passport",
    path: (w) => `/passport/${w.users.individual.id}`,
    ok: [200],
    cells: cells(404, { individual: "ok" }),
  }),
  loaderRow({
    route: "routes/passport.$userId",
    intent: "archived passport",
    path: (w) => `/passport/${w.users.archived.id}`,
    ok: [200],
    cells: cells(404),
  }),
  loaderRow({
    route: "routes/passport.$userId_.print",
    intent: "print view of a public passport",
    path: (w) => `/passport/${w.users.recipient.id}/print`,
    ok: [200],
    cells: PUBLIC,
  }),
  loaderRow({
    route: "routes/passport.$userId_.print",
    intent: "print view of a private passport",
    path: (w) => `/passport/${w.users.individual.id}/print`,
    ok: [200],
    cells: cells(404, { individual: "ok" }),
  }),
  loaderRow({
    route: "routes/passport.$userId_.print",
    intent: "print view of an archived passport",
    path: (w) => `/passport/${w.users.archived.id}/print`,
    ok: [200],
    cells: cells(404),
  }),

  // An entry's endorsements page (decision 079): public as the passport, its owner's if private.
  loaderRow({
    route: "routes/passport.$userId_.endorsements.$achievementId",
    intent: "an entry of a public passport",
    path: (w) => `/passport/${w.users.member.id}/endorsements/${w.credentialAchievement}`,
    ok: [200],
    cells: PUBLIC,
  }),
  loaderRow({
    route: "routes/passport.$userId_.endorsements.$achievementId",
    intent: "an entry named under another passport",
    path: (w) => `/passport/${w.users.individual.id}/endorsements/${w.credentialAchievement}`,
    ok: [200],
    cells: cells(404),
  }),

  // ---- Endorsements (issue 33, decision 072) ----
  // Anyone signed in but the owner may endorse an achievement on a public passport; another
  // already endorsed it as themselves (a refusal, nothing written).
  loaderRow({
    route: "routes/_app.passport.$userId.endorse.$achievementId",
    path: (w) => `/passport/${w.users.member.id}/endorse/${w.credentialAchievement}`,
    ok: [200],
    cells: cells("ok", { anon: "signin", archived: "signout", member: 403 }),
  }),
  loaderRow({
    route: "routes/_app.passport.$userId.endorse.$achievementId",
    intent: "an achievement of a private passport",
    path: (w) => `/passport/${w.users.individual.id}/endorse/${w.importedAchievement}`,
    ok: [200],
    cells: cells(404, { anon: "signin", archived: "signout" }),
  }),
  actionRow({
    route: "routes/_app.passport.$userId.endorse.$achievementId",
    intent: "endorse",
    path: (w) => `/passport/${w.users.member.id}/endorse/${w.credentialAchievement}`,
    body: form({ intent: "endorse", as: "person", comment: "Matrix endorsement" }),
    ok: [302],
    cells: cells("ok", { anon: "signin", archived: "signout", member: 403, another: "noop" }),
  }),
  actionRow({
    route: "routes/_app.passport.$userId.endorse.$achievementId",
    intent: "endorse for organisation A",
    path: (w) => `/passport/${w.users.member.id}/endorse/${w.credentialAchievement}`,
    body: (w) => form({ intent: "endorse", as: w.orgA, comment: "Matrix endorsement" }),
    ok: [302],
    cells: cells(403, { anon: "signin", archived: "signout", admin: "ok" }),
  }),
  // Only the owner answers their endorsements.
  loaderRow({ route: "routes/_app.passport.endorsements", path: "/passport/endorsements", ok: [200], cells: OWN }),
  ...(["show-endorsement", "hide-endorsement"] as const).map((intent) =>
    actionRow({
      route: "routes/_app.passport.endorsements",
      intent,
      path: "/passport/endorsements",
      body: (w) => form({ intent, endorsementId: w.endorsement }),
      ok: [302],
      cells: cells(403, { anon: "signin", archived: "signout", member: "ok" }),
    }),
  ),

  // ---- Sign-in, sign-up, confirmation ----
  loaderRow({ route: "routes/auth", path: "/auth", ok: [200], cells: ANONYMOUS }),
  actionRow({
    route: "routes/auth",
    intent: "signin",
    path: "/auth",
    body: (w) => form({ intent: "signin", email: w.users.another.email, password: PASSWORD }),
    ok: [302],
    cells: ANONYMOUS,
  }),
  actionRow({
    route: "routes/auth",
    intent: "signup",
    path: "/auth",
    body: () => form({ intent: "signup", name: "New Person", email: uniqueEmail(), password: PASSWORD }),
    ok: [302],
    cells: ANONYMOUS,
  }),
  actionRow({
    route: "routes/auth",
    intent: "org-signup",
    path: "/auth",
    body: () =>
      form({
        intent: "org-signup",
        name: "New Org Person",
        email: uniqueEmail(),
        password: PASSWORD,
        organizationName: "New Org",
      }),
    ok: [302],
    cells: ANONYMOUS,
  }),
  actionRow({
    route: "routes/auth",
    intent: "resend-verification",
    path: "/auth",
    body: (w) => form({ intent: "resend-verification", email: w.unconfirmedEmail }),
    ok: [302],
    cells: ANONYMOUS,
  }),
  // The second sign-in step (decision 060): only a browser holding a pending sign-in's cookie
  // (none here) gets the form; anyone else goes back to /auth, a signed-in caller to the dashboard.
  loaderRow({
    route: "routes/auth_.two-factor",
    path: "/auth/two-factor",
    ok: [200],
    cells: cells("dashboard", { anon: "signin" }),
  }),
  actionRow({
    route: "routes/auth_.two-factor",
    intent: "verify-code",
    path: "/auth/two-factor",
    body: form({ intent: "verify-code", code: "123456" }),
    ok: [302],
    cells: cells("dashboard", { anon: "signin" }),
  }),
  actionRow({
    route: "routes/auth_.two-factor",
    intent: "verify-recovery-code",
    path: "/auth/two-factor",
    body: form({ intent: "verify-recovery-code", code: "abcd-efgh-ijkl-mnop-qrst-uvwx" }),
    ok: [302],
    cells: cells("dashboard", { anon: "signin" }),
  }),
  // Confirming a password-only session (decision 089): the viewer's own session only, no account
  // id taken from the form. Nobody here holds an authenticator app, and no answer below was signed
  // by a passkey: refused, nothing changed.
  loaderRow({
    route: "routes/auth_.step-up",
    path: "/auth/step-up",
    ok: [200, 302],
    cells: cells("ok", { anon: "signin", archived: "signout" }),
  }),
  ...(["confirm-code", "confirm-recovery-code"] as const).map((intent) =>
    actionRow({
      route: "routes/auth_.step-up",
      intent,
      path: "/auth/step-up",
      body: form({ intent, code: intent === "confirm-code" ? "123456" : "abcd-efgh-ijkl-mnop-qrst-uvwx" }),
      ok: [302],
      cells: cells("noop", { anon: "signin", archived: "signout" }),
    }),
  ),
  actionRow({
    route: "routes/auth_.step-up",
    intent: "confirm-passkey",
    path: "/auth/step-up",
    body: form({ intent: "confirm-passkey", response: JSON.stringify({ id: "matrix", response: {} }) }),
    ok: [302],
    cells: cells("noop", { anon: "signin", archived: "signout" }),
  }),
  // Passkey sign-in (decision 061): anyone may ask for a challenge (it names no account); an
  // answer that no passkey signed is refused, and a signed-in caller is sent to the dashboard.
  actionRow({ route: "routes/auth_.passkey-options", path: "/auth/passkey-options", ok: [200], cells: PUBLIC }),
  actionRow({
    route: "routes/auth",
    intent: "passkey-signin",
    path: "/auth",
    body: form({ intent: "passkey-signin", response: JSON.stringify({ id: "matrix", response: {} }) }),
    ok: [302],
    cells: cells("dashboard", { anon: 401 }),
  }),
  // Forgot password: the same answer for every address; the token is the credential.
  loaderRow({ route: "routes/auth_.forgot-password", path: "/auth/forgot-password", ok: [200], cells: ANONYMOUS }),
  actionRow({
    route: "routes/auth_.forgot-password",
    path: "/auth/forgot-password",
    body: (w) => form({ intent: "forgot-password", email: w.users.another.email }),
    ok: [302],
    cells: ANONYMOUS,
  }),
  loaderRow({
    route: "routes/auth_.reset-password",
    path: (w) => `/auth/reset-password?token=${w.resetToken}`,
    ok: [200],
    cells: PUBLIC,
  }),
  actionRow({
    route: "routes/auth_.reset-password",
    intent: "valid token",
    path: (w) => `/auth/reset-password?token=${w.resetToken}`,
    body: (w) =>
      form({
        intent: "reset-password",
        token: w.resetToken,
        newPassword: PASSWORD,
        confirmPassword: PASSWORD,
      }),
    ok: [302],
    cells: PUBLIC,
  }),
  actionRow({
    route: "routes/auth_.reset-password",
    intent: "unknown token",
    path: "/auth/reset-password",
    body: () =>
      form({
        intent: "reset-password",
        token: "x".repeat(24),
        newPassword: PASSWORD,
        confirmPassword: PASSWORD,
      }),
    ok: [302],
    cells: cells(400),
  }),
  // The confirmation token and the account's password confirm: a browser that did not sign up
  // (every caller here) is asked for the password, and only the right one confirms (decision 058).
  actionRow({
    route: "routes/auth_.confirm",
    intent: "valid token, no password",
    path: "/auth/confirm",
    body: (w) => form({ token: w.token }),
    ok: [200],
    cells: cells("noop"),
  }),
  actionRow({
    route: "routes/auth_.confirm",
    intent: "valid token, wrong password",
    path: "/auth/confirm",
    body: (w) => form({ token: w.token, password: "wrong-password-1" }),
    ok: [200],
    cells: cells(400),
  }),
  actionRow({
    route: "routes/auth_.confirm",
    intent: "valid token and password",
    path: "/auth/confirm",
    body: (w) => form({ token: w.token, password: PASSWORD }),
    ok: [200],
    cells: PUBLIC,
  }),
  actionRow({
    route: "routes/auth_.confirm",
    intent: "forged token",
    path: "/auth/confirm",
    body: (w) => form({ token: forge(w.token) }),
    ok: [200],
    cells: cells(400),
  }),

  // ---- Dashboard ----
  loaderRow({ route: "routes/_app", path: "/passport", ok: [200], cells: OWN }),
  loaderRow({ route: "routes/_app.dashboard", path: "/dashboard", ok: [200], cells: OWN }),
  actionRow({
    route: "routes/_app.dashboard",
    intent: "give-achievement",
    path: "/dashboard",
    body: (w) =>
      form({
        intent: "give-achievement",
        formId: "give",
        userId: w.users.recipient.id,
        type: "award",
        date: today(),
        title: "Matrix award",
      }),
    ok: [302],
    // An admin of another organisation acts for that one, where the recipient is not a member.
    cells: cells(403, { anon: "signin", archived: "signout", admin: "ok", otherAdmin: "noop" }),
  }),
  actionRow({
    route: "routes/_app.dashboard",
    intent: "give-achievement (with a file)",
    path: "/dashboard",
    body: (w) =>
      multipart(
        {
          intent: "give-achievement",
          formId: "give",
          userId: w.users.recipient.id,
          type: "award",
          date: today(),
          title: "Matrix award",
        },
        { media: png() },
      ),
    ok: [302],
    cells: cells(403, { anon: "signin", archived: "signout", admin: "ok", otherAdmin: "noop" }),
  }),
  actionRow({
    route: "routes/_app.dashboard",
    intent: "create-organization",
    path: "/dashboard",
    body: form({ intent: "create-organization", name: "Matrix Org", description: "" }),
    ok: [302],
    cells: cells(403, { anon: "signin", archived: "signout", orgUser: "ok", admin: "ok", otherAdmin: "ok" }),
  }),
  actionRow({
    route: "routes/_app.dashboard",
    intent: "reset-invite",
    path: "/dashboard",
    body: form({ intent: "reset-invite" }),
    ok: [302],
    // The caller's active organisation only: Otto resets Org B's link, never A's.
    cells: cells(403, { anon: "signin", archived: "signout", admin: "ok", otherAdmin: "ok" }),
  }),
  actionRow({
    route: "routes/_app.dashboard",
    intent: "approve",
    path: "/dashboard",
    body: (w) => form({ intent: "approve", membershipId: w.pendingMembership }),
    ok: [302],
    cells: ADMIN_OF_A,
  }),
  actionRow({
    route: "routes/_app.dashboard",
    intent: "reject",
    path: "/dashboard",
    body: (w) => form({ intent: "reject", membershipId: w.pendingMembership }),
    ok: [302],
    cells: ADMIN_OF_A,
  }),
  actionRow({
    route: "routes/_app.dashboard",
    intent: "remove",
    path: "/dashboard",
    body: (w) => form({ intent: "remove", membershipId: w.memberMembership }),
    ok: [302],
    cells: ADMIN_OF_A,
  }),
  actionRow({
    route: "routes/_app.dashboard",
    intent: "request-join",
    path: "/dashboard",
    body: (w) => form({ intent: "request-join", organizationId: w.orgA }),
    ok: [302],
    // Those already in organisation A are told so; nothing is added.
    cells: cells("ok", { anon: "signin", archived: "signout", member: "noop", admin: "noop", recipient: "noop" }),
  }),
  actionRow({
    route: "routes/_app.dashboard",
    intent: "leave",
    path: "/dashboard",
    body: (w) => form({ intent: "leave", organizationId: w.orgA }),
    ok: [302],
    // Only one's own membership; the last admin may not leave (a refusal toast).
    cells: cells(404, { anon: "signin", archived: "signout", member: "ok", recipient: "ok", admin: "noop" }),
  }),
  actionRow({
    route: "routes/_app.dashboard",
    intent: "subscribe",
    path: "/dashboard",
    body: (w) => form({ intent: "subscribe", membershipId: w.memberMembership }),
    ok: [302],
    cells: ADMIN_OF_A,
  }),
  actionRow({
    route: "routes/_app.dashboard",
    intent: "manage-subscription",
    path: "/dashboard",
    body: (w) => form({ intent: "manage-subscription", membershipId: w.recipientMembership }),
    ok: [302],
    cells: ADMIN_OF_A,
  }),
  actionRow({
    route: "routes/_app.dashboard",
    intent: "cancel-subscription",
    path: "/dashboard",
    body: (w) => form({ intent: "cancel-subscription", membershipId: w.recipientMembership }),
    ok: [302],
    cells: ADMIN_OF_A,
  }),

  // ---- Notifications ----
  loaderRow({ route: "routes/_app.notifications", path: "/notifications", ok: [200], cells: OWN }),
  actionRow({
    route: "routes/_app.notifications",
    intent: "mark-read",
    path: "/notifications",
    body: (w) => form({ intent: "mark-read", id: w.recipientNotification }),
    ok: [200],
    // Scoped to the caller's own notifications: anyone else's id changes nothing.
    cells: cells("noop", { anon: "signin", archived: "signout", recipient: "ok" }),
  }),
  actionRow({
    route: "routes/_app.notifications",
    intent: "mark-all-read",
    path: "/notifications",
    body: form({ intent: "mark-all-read" }),
    ok: [200],
    cells: OWN,
  }),

  // ---- Own passport ----
  loaderRow({ route: "routes/_app.passport._index", path: "/passport", ok: [200], cells: OWN }),
  actionRow({
    route: "routes/_app.passport._index",
    intent: "add-self-achievement",
    path: "/passport",
    body: () =>
      multipart(
        {
          intent: "add-self-achievement",
          formId: "self",
          title: "Matrix",
          company: "Acme",
          type: "award",
          date: today(),
        },
        { media: png() },
      ),
    ok: [302],
    cells: OWN,
  }),
  actionRow({
    route: "routes/_app.passport._index",
    intent: "update-bio",
    path: "/passport",
    body: form({ intent: "update-bio", bio: "Matrix bio" }),
    ok: [302],
    cells: OWN,
  }),
  actionRow({
    route: "routes/_app.passport._index",
    intent: "accept",
    path: "/passport",
    body: (w) => form({ intent: "accept", achievementId: w.pendingAchievement }),
    ok: [302],
    cells: RECIPIENT,
  }),
  actionRow({
    route: "routes/_app.passport._index",
    intent: "reject",
    path: "/passport",
    body: (w) => form({ intent: "reject", achievementId: w.pendingAchievement }),
    ok: [302],
    cells: RECIPIENT,
  }),
  actionRow({
    route: "routes/_app.passport._index",
    intent: "set-visibility",
    path: "/passport",
    body: (w) => form({ intent: "set-visibility", achievementId: w.pendingAchievement, visible: "false" }),
    ok: [302],
    cells: RECIPIENT,
  }),

  // 'Import history' (issue 32, decision 067): always into the caller's own passport.
  loaderRow({ route: "routes/_app.passport.import-history", path: "/passport/import-history", ok: [200], cells: OWN }),
  actionRow({
    route: "routes/_app.passport.import-history",
    intent: "read-history",
    path: "/passport/import-history",
    body: () =>
      multipart(
        { intent: "read-history" },
        {
          file: new File(["Company Name,Title,Started On\nAcme,Matrix,2020\n"], "Positions.csv", { type: "text/csv" }),
        },
      ),
    ok: [200],
    cells: OWN,
  }),
  actionRow({
    route: "routes/_app.passport.import-history",
    intent: "add-history",
    path: "/passport/import-history",
    body: () =>
      form({
        intent: "add-history",
        "entries[0].key": `history:${"m".repeat(24)}`,
        "entries[0].selected": "on",
        "entries[0].title": "Matrix",
        "entries[0].company": "Acme",
        "entries[0].date": "2020-01-01",
        "entries[0].type": "milestone",
      }),
    ok: [302],
    cells: OWN,
  }),
  // Imported badges (issue 32, decision 069): the member's seeded import is theirs alone to delete
  // or download; for anyone else it is not there.
  actionRow({
    route: "routes/_app.passport._index",
    intent: "delete-import",
    path: "/passport",
    body: (w) => form({ intent: "delete-import", achievementId: w.importedAchievement }),
    ok: [302],
    cells: cells(404, { anon: "signin", archived: "signout", member: "ok" }),
  }),
  loaderRow({
    route: "routes/passport.imports.$achievementId.original",
    path: (w) => `/passport/imports/${w.importedAchievement}/original`,
    ok: [200],
    cells: cells(404, { anon: "signin", archived: "signout", member: "ok" }),
  }),
  loaderRow({ route: "routes/_app.passport.import", path: "/passport/import", ok: [200], cells: OWN }),
  // A check answers with its checks (a pasted JSON that is no badge: refused, nothing kept).
  actionRow({
    route: "routes/_app.passport.import",
    intent: "check-import",
    path: "/passport/import",
    body: () => multipart({ intent: "check-import", source: '{"hello":"world"}' }, {}),
    ok: [200],
    cells: OWN,
  }),
  // Adding needs the caller's own pending check: with none, it is refused and nothing changes.
  actionRow({
    route: "routes/_app.passport.import",
    intent: "add-import",
    path: "/passport/import",
    body: form({ intent: "add-import", nonce: "00000000-0000-4000-8000-000000000000" }),
    ok: [400],
    cells: cells("noop", { anon: "signin", archived: "signout" }),
  }),
  // 'Prove with my wallet' (decision 099) needs the caller's own pending check too: no exchange
  // is opened for a nonce that is not theirs.
  actionRow({
    route: "routes/_app.passport.import",
    intent: "prove-wallet",
    path: "/passport/import",
    body: form({ intent: "prove-wallet", nonce: "00000000-0000-4000-8000-000000000000" }),
    ok: [400],
    cells: cells("noop", { anon: "signin", archived: "signout" }),
  }),
  // Another person's proof (or none): 404 for every caller.
  loaderRow({
    route: "routes/_app.passport.import",
    intent: "wallet proof shown",
    path: () => `/passport/import?prove=${crypto.randomUUID()}`,
    ok: [404],
    cells: cells(404, { anon: "signin", archived: "signout" }),
  }),

  // 'Add to wallet' (issue 31): only for the person's own credential (the member's, seeded);
  // another person's exchange is not shown (the page answers without it).
  loaderRow({
    route: "routes/_app.passport._index",
    intent: "wallet exchange shown",
    path: (w) => `/passport?wallet=${w.walletExchange}`,
    ok: [200],
    cells: OWN,
  }),
  actionRow({
    route: "routes/_app.passport._index",
    intent: "add-to-wallet",
    path: "/passport",
    body: (w) => form({ intent: "add-to-wallet", achievementId: w.credentialAchievement }),
    ok: [302],
    cells: cells(404, { anon: "signin", archived: "signout", member: "ok" }),
  }),

  // 'Accept with my wallet' (issue 31, decision 066): only the recipient opens an exchange for
  // their pending offer; anyone else's is not there (404), and not shown.
  loaderRow({
    route: "routes/_app.passport._index",
    intent: "accept exchange shown",
    path: (w) => `/passport?accept-wallet=${w.acceptExchange}`,
    ok: [200],
    cells: OWN,
  }),
  actionRow({
    route: "routes/_app.passport._index",
    intent: "accept-with-wallet",
    path: "/passport",
    body: (w) => form({ intent: "accept-with-wallet", achievementId: w.pendingAchievement }),
    ok: [302],
    cells: cells(404, { anon: "signin", archived: "signout", recipient: "ok" }),
  }),

  // ---- Settings (an archived account may still reach it, to finish leaving) ----
  loaderRow({
    route: "routes/_app.settings._index",
    path: "/settings",
    ok: [200],
    cells: cells("ok", { anon: "signin" }),
  }),
  // Its sections (decision 080): each its own loader, the person's own data only; an archived
  // account reaches only /settings, and is signed out anywhere else.
  ...["security", "addresses", "sessions", "data", "danger"].map((section) =>
    loaderRow({ route: `routes/_app.settings.${section}`, path: `/settings/${section}`, ok: [200], cells: OWN }),
  ),
  actionRow({
    route: "routes/_app.settings._index",
    intent: "update-profile",
    path: "/settings?index",
    body: form({ intent: "update-profile", fullName: "Matrix Name", bio: "" }),
    ok: [302],
    cells: cells("ok", { anon: "signin", archived: "noop" }),
  }),
  actionRow({
    route: "routes/_app.settings.security",
    intent: "change-password",
    path: "/settings/security",
    body: form({
      intent: "change-password",
      currentPassword: PASSWORD,
      newPassword: "cobalt-lantern-2",
      confirmPassword: "cobalt-lantern-2",
    }),
    ok: [302],
    cells: cells("ok", { anon: "signin", archived: "noop" }),
  }),
  actionRow({
    route: "routes/_app.settings._index",
    intent: "send-feedback",
    path: "/settings?index",
    body: form({ intent: "send-feedback", message: "Matrix feedback", rating: "5" }),
    ok: [302],
    cells: cells("ok", { anon: "signin", archived: "noop" }),
  }),
  actionRow({
    route: "routes/_app.settings.danger",
    intent: "archive",
    path: "/settings/danger",
    body: form({ intent: "archive" }),
    ok: [302],
    cells: cells("ok", { anon: "signin", archived: "noop" }),
  }),
  actionRow({
    route: "routes/_app.settings",
    intent: "purge",
    path: "/settings",
    body: form({ intent: "purge", password: PASSWORD }),
    ok: [302],
    cells: cells("noop", { anon: "signin", archived: "ok" }),
  }),
  actionRow({
    route: "routes/_app.settings",
    intent: "purge (wrong password)",
    path: "/settings",
    body: form({ intent: "purge", password: "wrong-password-1" }),
    // Active accounts are sent back to Settings; the archived one is refused, deleting nothing.
    ok: [302],
    cells: cells("noop", { anon: "signin", archived: 400 }),
  }),
  actionRow({
    route: "routes/_app.settings",
    intent: "reactivate",
    path: "/settings",
    body: form({ intent: "reactivate" }),
    ok: [302],
    cells: cells("noop", { anon: "signin", archived: "ok" }),
  }),
  // Sessions (decision 058): only the person's own; another's session id is not found.
  actionRow({
    route: "routes/_app.settings.sessions",
    intent: "sign-out-session",
    path: "/settings/sessions",
    body: (w) => form({ intent: "sign-out-session", sessionId: w.anotherSession }),
    ok: [302],
    cells: cells(404, { anon: "signin", archived: "noop", another: "ok" }),
  }),
  actionRow({
    route: "routes/_app.settings.sessions",
    intent: "sign-out-other-sessions",
    path: "/settings/sessions",
    body: form({ intent: "sign-out-other-sessions" }),
    ok: [302],
    cells: cells("ok", { anon: "signin", archived: "noop" }),
  }),
  // Two-factor (decision 060): the person's own only, no id taken from the form. Turning it on
  // needs the password; confirming, replacing the codes and turning off need a setup or two-factor
  // on, which nobody here has (refused, nothing changed).
  actionRow({
    route: "routes/_app.settings.security",
    intent: "enable-two-factor",
    path: "/settings/security",
    body: form({ intent: "enable-two-factor", password: PASSWORD }),
    ok: [302],
    cells: cells("ok", { anon: "signin", archived: "noop" }),
  }),
  actionRow({
    route: "routes/_app.settings.security",
    intent: "confirm-two-factor",
    path: "/settings/security",
    body: form({ intent: "confirm-two-factor", code: "123456" }),
    ok: [302],
    cells: cells("noop", { anon: "signin" }),
  }),
  actionRow({
    route: "routes/_app.settings.security",
    intent: "regenerate-recovery-codes",
    path: "/settings/security",
    body: form({ intent: "regenerate-recovery-codes", password: PASSWORD }),
    ok: [302],
    cells: cells("noop", { anon: "signin" }),
  }),
  actionRow({
    route: "routes/_app.settings.security",
    intent: "disable-two-factor",
    path: "/settings/security",
    body: form({ intent: "disable-two-factor", password: PASSWORD, code: "123456" }),
    ok: [302],
    cells: cells("noop", { anon: "signin" }),
  }),
  // Passkeys (decision 061): the person's own only. Adding one needs the password, then the
  // browser's answer to the challenge this browser was given (none here: refused, nothing added);
  // another's passkey id is not found.
  actionRow({
    route: "routes/_app.settings.security",
    intent: "passkey-options",
    path: "/settings/security",
    body: form({ intent: "passkey-options", password: PASSWORD }),
    // The options (200); an archived account is sent back to Settings (302).
    ok: [200, 302],
    cells: cells("ok", { anon: "signin", archived: "noop" }),
  }),
  actionRow({
    route: "routes/_app.settings.security",
    intent: "add-passkey",
    path: "/settings/security",
    body: form({ intent: "add-passkey", response: JSON.stringify({ id: "matrix", response: {} }) }),
    ok: [302],
    cells: cells("noop", { anon: "signin" }),
  }),
  actionRow({
    route: "routes/_app.settings.security",
    intent: "rename-passkey",
    path: "/settings/security",
    body: (w) => form({ intent: "rename-passkey", passkeyId: w.anotherPasskey, name: "Matrix key" }),
    ok: [302],
    cells: cells(404, { anon: "signin", archived: "noop", another: "ok" }),
  }),
  actionRow({
    route: "routes/_app.settings.security",
    intent: "remove-passkey",
    path: "/settings/security",
    body: (w) => form({ intent: "remove-passkey", passkeyId: w.anotherPasskey, password: PASSWORD }),
    ok: [302],
    cells: cells(404, { anon: "signin", archived: "noop", another: "ok" }),
  }),
  // Wallet keys (decision 066): only the person whose credential was issued to the DID forgets it.
  actionRow({
    route: "routes/_app.settings.data",
    intent: "forget-holder-key",
    path: "/settings/data",
    body: (w) => form({ intent: "forget-holder-key", did: w.holderDid }),
    ok: [302],
    cells: cells(404, { anon: "signin", archived: "noop", member: "ok" }),
  }),
  // Other e-mail addresses (decision 068): the person's own only; another's address id is not found.
  actionRow({
    route: "routes/_app.settings.addresses",
    intent: "add-other-address",
    path: "/settings/addresses",
    body: form({ intent: "add-other-address", address: "matrix-other@example.com" }),
    ok: [302],
    cells: cells("ok", { anon: "signin", archived: "noop" }),
  }),
  actionRow({
    route: "routes/_app.settings.addresses",
    intent: "resend-other-address",
    path: "/settings/addresses",
    body: (w) => form({ intent: "resend-other-address", addressId: w.otherAddressId }),
    ok: [302],
    cells: cells(404, { anon: "signin", archived: "noop", another: "ok" }),
  }),
  actionRow({
    route: "routes/_app.settings.addresses",
    intent: "remove-other-address",
    path: "/settings/addresses",
    body: (w) => form({ intent: "remove-other-address", addressId: w.otherAddressId }),
    ok: [302],
    cells: cells(404, { anon: "signin", archived: "noop", another: "ok" }),
  }),
  // The link mailed to the address: anyone signed in sees a page (the owner's to confirm, everyone
  // else's 'This link is for another account'); only the account that added it confirms it.
  loaderRow({
    route: "routes/_app.settings_.addresses.confirm",
    path: (w) => `/settings/addresses/confirm?token=${w.otherAddressToken}`,
    ok: [200],
    cells: OWN,
  }),
  actionRow({
    route: "routes/_app.settings_.addresses.confirm",
    path: "/settings/addresses/confirm",
    body: (w) => form({ token: w.otherAddressToken }),
    ok: [302],
    cells: cells(403, { anon: "signin", archived: "signout", another: "ok" }),
  }),
  actionRow({
    route: "routes/_app.settings._index",
    intent: "update-preferences",
    path: "/settings?index",
    body: form({ intent: "update-preferences", recognitionEmails: "on" }),
    ok: [302],
    cells: cells("ok", { anon: "signin", archived: "noop" }),
  }),
  // The caller's own data only: no id is taken from the request.
  actionRow({
    route: "routes/settings.export",
    intent: "download my data",
    path: "/settings/export",
    body: form({}),
    ok: [200],
    cells: OWN,
  }),
  loaderRow({ route: "routes/settings.resume[.json]", path: "/settings/resume.json", ok: [200], cells: OWN }),

  // ---- Organisations ----
  actionRow({
    route: "routes/join.$organizationId",
    intent: "join with the invite code",
    path: (w) => `/join/${w.orgA}`,
    body: (w) => form({ code: w.inviteCode }),
    // Joined (200), or sent to the dashboard: already a member.
    ok: [200, 302],
    cells: cells("ok", { anon: "signin", archived: "signout", member: "noop", admin: "noop", recipient: "noop" }),
  }),
  actionRow({
    route: "routes/join.$organizationId",
    intent: "join without a valid code",
    path: (w) => `/join/${w.orgA}`,
    body: form({ code: "not-the-code" }),
    // Only a pending request is made (sent to the dashboard with 'Request sent').
    ok: [302],
    cells: cells("ok", { anon: "signin", archived: "signout", member: "noop", admin: "noop", recipient: "noop" }),
  }),
  actionRow({
    route: "routes/organizations.active",
    path: "/organizations/active",
    body: (w) => form({ organizationId: w.orgA }),
    ok: [302],
    cells: cells(403, { anon: "signin", archived: "signout", member: "ok", admin: "ok", recipient: "ok" }),
  }),

  // ---- Profile media ----
  actionRow({
    route: "routes/profile.media",
    intent: "upload-avatar",
    path: "/profile/media",
    body: () => multipart({ intent: "upload-avatar" }, { avatar: png() }, ["avatar"]),
    ok: [302],
    cells: OWN,
  }),
  actionRow({
    route: "routes/profile.media",
    intent: "upload-intro-video",
    path: "/profile/media",
    // A real video, so that every cell reaches the upload and the write (a bare form is refused first).
    body: () =>
      multipart(
        { intent: "upload-intro-video" },
        { introVideo: new File([mp4Bytes({ seconds: 3 })], "intro.mp4", { type: "video/mp4" }) },
      ),
    ok: [302],
    cells: OWN,
  }),
  actionRow({
    route: "routes/profile.media",
    intent: "remove-intro-video",
    path: "/profile/media",
    body: form({ intent: "remove-intro-video" }),
    ok: [302],
    cells: OWN,
  }),

  // ---- Billing ----
  // The return page only shows a toast; the subscription changes by verified webhook only.
  loaderRow({
    route: "routes/billing.return",
    path: "/billing/return?checkout=complete",
    ok: [302],
    cells: cells("ok", { anon: "signin", archived: "signout" }),
  }),
  {
    route: "routes/billing.simulated-checkout",
    kind: "loader",
    call: (w) => ({
      method: "GET",
      path: `/billing/simulated-checkout?organizationId=${w.orgA}&memberUserId=${w.users.member.id}`,
    }),
    ok: [200],
    cells: ADMIN_OF_A,
  },
  actionRow({
    route: "routes/billing.simulated-checkout",
    intent: "complete",
    path: "/billing/simulated-checkout",
    body: (w) => form({ intent: "complete", organizationId: w.orgA, memberUserId: w.users.member.id }),
    ok: [302],
    cells: ADMIN_OF_A,
  }),
  loaderRow({
    route: "routes/billing.simulated-portal",
    path: (w) => `/billing/simulated-portal?membershipId=${w.recipientMembership}`,
    ok: [200],
    cells: ADMIN_OF_A,
  }),
  actionRow({
    route: "routes/billing.simulated-portal",
    intent: "cancel-subscription",
    path: "/billing/simulated-portal",
    body: (w) => form({ intent: "cancel-subscription", membershipId: w.recipientMembership }),
    ok: [302],
    cells: ADMIN_OF_A,
  }),

  // ---- Verifiable credentials (issue 17): public reads, admin-only revocation ----
  loaderRow({
    route: "routes/credentials.$credentialId",
    path: (w) => `/credentials/${w.credential}`,
    ok: [200],
    cells: PUBLIC,
  }),
  actionRow({
    route: "routes/verify",
    intent: "verify a pasted credential",
    // Multipart, as the page posts it (a plain object with a `json` key is this table's JSON body).
    path: "/verify",
    body: (w) => multipart({ json: w.credentialJson }, {}),
    ok: [200],
    cells: PUBLIC,
  }),
  {
    route: "routes/_app.dashboard_.achievements",
    kind: "loader",
    call: () => ({ method: "GET", path: "/dashboard/achievements" }),
    ok: [200],
    // Each admin sees their own (active) organisation's list; everyone else goes to the dashboard.
    cells: cells("dashboard", { anon: "signin", archived: "signout", admin: "ok", otherAdmin: "ok" }),
  },
  actionRow({
    route: "routes/_app.dashboard_.achievements",
    intent: "revoke",
    path: "/dashboard/achievements",
    body: (w) => form({ intent: "revoke", credentialId: w.credential }),
    ok: [302],
    cells: ADMIN_OF_A,
  }),
  actionRow({
    route: "routes/_app.dashboard_.achievements",
    intent: "renew",
    path: "/dashboard/achievements",
    // Decision 071: only an admin of the entry's organisation (read from its row) renews it.
    body: (w) => form({ intent: "renew", achievementId: w.credentialAchievement, validUntil: "2999-01-01" }),
    ok: [302],
    cells: ADMIN_OF_A,
  }),
  {
    route: "routes/_app.dashboard_.organization",
    kind: "loader",
    call: () => ({ method: "GET", path: "/dashboard/organization" }),
    ok: [200],
    // Each admin sees their own (active) organisation's domains; everyone else goes to the dashboard.
    cells: cells("dashboard", { anon: "signin", archived: "signout", admin: "ok", otherAdmin: "ok" }),
  },
  actionRow({
    route: "routes/_app.dashboard_.organization",
    intent: "add-domain",
    path: "/dashboard/organization",
    body: () => form({ intent: "add-domain", domain: `${crypto.randomUUID().slice(0, 8)}.example` }),
    ok: [302],
    // An admin adds to their own active organisation; nobody else has one to add to.
    cells: cells(403, { anon: "signin", archived: "signout", admin: "ok", otherAdmin: "ok" }),
  }),
  actionRow({
    route: "routes/_app.dashboard_.organization",
    intent: "verify-domain",
    path: "/dashboard/organization",
    body: (w) => form({ intent: "verify-domain", domainId: w.domainClaim }),
    // Without a published record the lookup refuses: asking is allowed, nothing changes.
    ok: [400],
    // The other admin's active organisation has no such domain.
    cells: cells(403, { anon: "signin", archived: "signout", admin: "ok", otherAdmin: 404 }),
  }),
  actionRow({
    route: "routes/_app.dashboard_.organization",
    intent: "remove-domain",
    path: "/dashboard/organization",
    body: (w) => form({ intent: "remove-domain", domainId: w.domainClaim }),
    ok: [302],
    cells: cells(403, { anon: "signin", archived: "signout", admin: "ok", otherAdmin: "noop" }),
  }),
  actionRow({
    route: "routes/_app.dashboard_.organization",
    intent: "set-admin-sign-in",
    path: "/dashboard/organization",
    // Left off (turning it on needs the admin's own strong factor, decision 062): asked of the
    // caller's active organisation only.
    body: form({ intent: "set-admin-sign-in" }),
    ok: [302],
    cells: cells(403, { anon: "signin", archived: "signout", admin: "ok", otherAdmin: "ok" }),
  }),
  actionRow({
    route: "routes/_app.dashboard_.organization",
    intent: "set-membership-credentials",
    path: "/dashboard/organization",
    // Kept on (the default) so that no other row's world changes; asked of the caller's active
    // organisation only, so another organisation's admin changes their own (decision 070).
    body: form({ intent: "set-membership-credentials", membershipCredentials: "on" }),
    ok: [302],
    cells: cells(403, { anon: "signin", archived: "signout", admin: "ok", otherAdmin: "ok" }),
  }),
  {
    route: "routes/dashboard.organization.did-configuration.$domainId",
    kind: "loader",
    call: (w) => ({ method: "GET", path: `/dashboard/organization/did-configuration/${w.verifiedDomain}` }),
    ok: [200],
    cells: cells(403, { anon: "signin", archived: "signout", admin: "ok", otherAdmin: 404 }),
  },
  loaderRow({
    route: "hono:GET /orgs/:organizationId/did.json",
    path: (w) => `/orgs/${w.orgA}/did.json`,
    ok: [200],
    cells: PUBLIC,
  }),
  loaderRow({
    route: "hono:GET /credentials/status/:id",
    path: (w) => `/credentials/status/${w.statusList}`,
    ok: [200],
    cells: PUBLIC,
  }),
  {
    route: "hono:GET /credentials/:id",
    kind: "loader",
    intent: "credential JSON",
    call: (w) => ({
      method: "GET",
      path: `/credentials/${w.credential}`,
      headers: { Accept: "application/ld+json" },
    }),
    ok: [200],
    cells: PUBLIC,
  },
  // The holder's signed acceptance (decision 066): public, like the credential it belongs to.
  loaderRow({
    route: "hono:GET /credentials/:id/acceptance",
    intent: "signed acceptance",
    path: (w) => `/credentials/${w.credential}/acceptance`,
    ok: [200],
    cells: PUBLIC,
  }),
  loaderRow({
    route: "hono:GET /credentials/:id/acceptance",
    intent: "accepted without a signature",
    path: () => `/credentials/${crypto.randomUUID()}/acceptance`,
    ok: [200],
    cells: cells(404),
  }),
  loaderRow({
    route: "hono:GET /credentials/:id/download",
    path: (w) => `/credentials/${w.credential}/download`,
    ok: [200],
    cells: PUBLIC,
  }),
  {
    route: "hono:OPTIONS /orgs/*",
    kind: "loader",
    intent: "CORS preflight",
    call: (w) => ({ method: "OPTIONS", path: `/orgs/${w.orgA}/did.json` }),
    ok: [204],
    cells: PUBLIC,
  },
  {
    route: "hono:OPTIONS /credentials/*",
    kind: "loader",
    intent: "CORS preflight",
    call: (w) => ({ method: "OPTIONS", path: `/credentials/status/${w.statusList}` }),
    ok: [204],
    cells: PUBLIC,
  },
  // Endorsements (decision 072): a person's DID document and each signed endorsement, public.
  loaderRow({
    route: "hono:GET /people/:userId/did.json",
    path: (w) => `/people/${w.users.another.id}/did.json`,
    ok: [200],
    cells: PUBLIC,
  }),
  loaderRow({
    route: "hono:GET /people/:userId/did.json",
    intent: "a person who never endorsed",
    path: (w) => `/people/${w.users.individual.id}/did.json`,
    ok: [200],
    cells: cells(404),
  }),
  loaderRow({
    route: "hono:GET /endorsements/:id",
    path: (w) => `/endorsements/${w.endorsement}`,
    ok: [200],
    cells: PUBLIC,
  }),
  loaderRow({
    route: "hono:GET /endorsements/:id/download",
    path: (w) => `/endorsements/${w.endorsement}/download`,
    ok: [200],
    cells: PUBLIC,
  }),
  {
    route: "hono:OPTIONS /people/*",
    kind: "loader",
    intent: "CORS preflight",
    call: (w) => ({ method: "OPTIONS", path: `/people/${w.users.another.id}/did.json` }),
    ok: [204],
    cells: PUBLIC,
  },
  {
    route: "hono:OPTIONS /endorsements/*",
    kind: "loader",
    intent: "CORS preflight",
    call: (w) => ({ method: "OPTIONS", path: `/endorsements/${w.endorsement}` }),
    ok: [204],
    cells: PUBLIC,
  },

  // The wallet exchange (issue 31): a wallet anywhere, no cookie; only a DIDAuth signed over the
  // exchange's challenge gets an answer (tests/workers/wallet-exchange.test.ts signs real ones).
  exchangeRow("unsigned presentation", (w) => w.walletExchange, unsigned, cells(401)),
  exchangeRow("unsigned acceptance", (w) => w.acceptExchange, unsigned, cells(401)),
  // Signed by a wallet's own libraries (the world's): the credential goes to its DID, the
  // acceptance is recorded with its proof. No cookie: any caller holding the link gets the same.
  exchangeRow(
    "signed presentation",
    (w) => w.walletExchange,
    (w) => ({ json: w.walletPresentation }),
    PUBLIC,
  ),
  exchangeRow(
    "signed acceptance",
    (w) => w.acceptExchange,
    (w) => ({ json: w.acceptPresentation }),
    PUBLIC,
  ),
  exchangeRow(
    "unknown exchange",
    () => crypto.randomUUID(),
    () => ({ json: {} }),
    cells(404),
  ),
  {
    route: "hono:OPTIONS /credentials/exchanges/:id",
    kind: "loader",
    intent: "CORS preflight",
    call: (w) => ({ method: "OPTIONS", path: `/credentials/exchanges/${w.walletExchange}` }),
    ok: [204],
    cells: PUBLIC,
  },

  // OpenID4VCI (issue 31, decision 065): wallets anywhere, no cookie. The metadata is public; the
  // offer answers whoever holds its unguessable id; a token needs the pre-authorised code and its
  // transaction code, a credential a token and a proof (tests/workers/openid4vci.test.ts drives a
  // real wallet library through them).
  loaderRow({
    route: "hono:GET /.well-known/openid-credential-issuer",
    path: "/.well-known/openid-credential-issuer",
    ok: [200],
    cells: PUBLIC,
  }),
  loaderRow({
    route: "hono:GET /.well-known/oauth-authorization-server",
    path: "/.well-known/oauth-authorization-server",
    ok: [200],
    cells: PUBLIC,
  }),
  loaderRow({
    route: "hono:GET /openid4vci/offers/:id",
    intent: "open offer",
    path: (w) => `/openid4vci/offers/${w.openid4vciOffer}`,
    ok: [200],
    cells: PUBLIC,
  }),
  loaderRow({
    route: "hono:GET /openid4vci/offers/:id",
    intent: "unknown offer",
    path: () => `/openid4vci/offers/${crypto.randomUUID()}`,
    ok: [200],
    cells: cells(404),
  }),
  actionRow({
    route: "hono:POST /openid4vci/token",
    intent: "pre-authorised code and its transaction code",
    path: "/openid4vci/token",
    body: (w) =>
      form({
        grant_type: "urn:ietf:params:oauth:grant-type:pre-authorized_code",
        "pre-authorized_code": w.offerCode.preAuthorizedCode,
        tx_code: w.offerCode.txCode,
      }),
    ok: [200],
    cells: PUBLIC,
    crossSiteExempt: "a wallet calls it from anywhere; it authenticates by the pre-authorised code and its tx_code",
  }),
  actionRow({
    route: "hono:POST /openid4vci/token",
    intent: "unknown pre-authorised code",
    path: "/openid4vci/token",
    body: form({
      grant_type: "urn:ietf:params:oauth:grant-type:pre-authorized_code",
      "pre-authorized_code": "not-a-code",
      tx_code: "000000",
    }),
    ok: [200],
    cells: cells(400),
    crossSiteExempt: "a wallet calls it from anywhere; it authenticates by the pre-authorised code and its tx_code",
  }),
  actionRow({
    route: "hono:POST /openid4vci/nonce",
    path: "/openid4vci/nonce",
    body: { json: {} },
    ok: [200],
    cells: PUBLIC,
    crossSiteExempt: "a wallet calls it from anywhere; a nonce grants nothing by itself",
  }),
  actionRow({
    route: "hono:POST /openid4vci/credential",
    intent: "access token and proof",
    path: "/openid4vci/credential",
    body: (w) => ({
      json: { credential_configuration_id: "OpenBadgeCredential", proofs: { jwt: [w.openid4vciCredential.proof] } },
    }),
    headers: (w) => ({ Authorization: `Bearer ${w.openid4vciCredential.accessToken}` }),
    ok: [200],
    cells: PUBLIC,
    crossSiteExempt: "a wallet calls it from anywhere; it authenticates by the access token and a proof of possession",
  }),
  actionRow({
    route: "hono:POST /openid4vci/credential",
    intent: "no access token",
    path: "/openid4vci/credential",
    body: () => ({ json: { credential_configuration_id: "OpenBadgeCredential" } }),
    ok: [200],
    cells: cells(401),
    crossSiteExempt: "a wallet calls it from anywhere; it authenticates by the access token and a proof of possession",
  }),
  {
    route: "hono:OPTIONS /.well-known/openid-credential-issuer",
    kind: "loader",
    intent: "CORS preflight",
    call: (_w) => ({ method: "OPTIONS", path: "/.well-known/openid-credential-issuer" }),
    ok: [204],
    cells: PUBLIC,
  },
  {
    route: "hono:OPTIONS /.well-known/oauth-authorization-server",
    kind: "loader",
    intent: "CORS preflight",
    call: (_w) => ({ method: "OPTIONS", path: "/.well-known/oauth-authorization-server" }),
    ok: [204],
    cells: PUBLIC,
  },
  {
    route: "hono:OPTIONS /openid4vci/offers/:id",
    kind: "loader",
    intent: "CORS preflight",
    call: (w) => ({ method: "OPTIONS", path: `/openid4vci/offers/${w.openid4vciOffer}` }),
    ok: [204],
    cells: PUBLIC,
  },
  {
    route: "hono:OPTIONS /openid4vci/token",
    kind: "loader",
    intent: "CORS preflight",
    call: (_w) => ({ method: "OPTIONS", path: "/openid4vci/token" }),
    ok: [204],
    cells: PUBLIC,
  },
  {
    route: "hono:OPTIONS /openid4vci/nonce",
    kind: "loader",
    intent: "CORS preflight",
    call: (_w) => ({ method: "OPTIONS", path: "/openid4vci/nonce" }),
    ok: [204],
    cells: PUBLIC,
  },
  {
    route: "hono:OPTIONS /openid4vci/credential",
    kind: "loader",
    intent: "CORS preflight",
    call: (_w) => ({ method: "OPTIONS", path: "/openid4vci/credential" }),
    ok: [204],
    cells: PUBLIC,
  },

  // ---- Hono routes ----
  loaderRow({ route: "hono:GET /media/*", path: (w) => `/media/${w.mediaKey}`, ok: [200], cells: PUBLIC }),
  // Link preview images: public like the pages they show; none for a private or archived passport.
  loaderRow({ route: "hono:GET /card.png", path: "/card.png", ok: [200], cells: PUBLIC }),
  loaderRow({
    route: "hono:GET /passport/:userId/card.png",
    intent: "public passport",
    path: (w) => `/passport/${w.users.recipient.id}/card.png`,
    ok: [200],
    cells: PUBLIC,
  }),
  loaderRow({
    route: "hono:GET /passport/:userId/card.png",
    intent: "private passport",
    path: (w) => `/passport/${w.users.individual.id}/card.png`,
    ok: [200],
    cells: cells(404),
  }),
  loaderRow({
    route: "hono:GET /passport/:userId/card.png",
    intent: "archived passport",
    path: (w) => `/passport/${w.users.archived.id}/card.png`,
    ok: [200],
    cells: cells(404),
  }),
  {
    route: "hono:GET /api/notifications/socket",
    kind: "loader",
    call: () => ({ method: "GET", path: "/api/notifications/socket", headers: { Upgrade: "websocket" } }),
    ok: [101],
    cells: cells("ok", { anon: 401, archived: 403 }),
    webSocket: true,
  },
  actionRow({
    route: "hono:POST /api/stripe/webhook",
    intent: "unsigned",
    path: "/api/stripe/webhook",
    body: () => ({ json: checkoutEvent() }),
    ok: [200],
    cells: cells(400),
    crossSiteExempt: "Stripe calls it cross-site; it authenticates by signature",
  }),
  // Signed with the webhook's secret when sent: a member's subscription starts (who sends it does not matter).
  actionRow({
    route: "hono:POST /api/stripe/webhook",
    intent: "signed checkout",
    path: "/api/stripe/webhook",
    body: (w) => ({ json: w.stripeCheckout }),
    sign: async (payload) => ({
      "Stripe-Signature": await Stripe.webhooks.generateTestHeaderStringAsync({
        payload,
        secret: env.STRIPE_WEBHOOK_SECRET,
        cryptoProvider: Stripe.createSubtleCryptoProvider(),
      }),
    }),
    ok: [200],
    cells: PUBLIC,
    crossSiteExempt: "Stripe calls it cross-site; it authenticates by signature",
  }),
  actionRow({
    route: "hono:POST /api/stripe/webhook",
    intent: "wrongly signed",
    path: "/api/stripe/webhook",
    body: () => ({ json: checkoutEvent() }),
    headers: () => ({ "Stripe-Signature": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` }),
    ok: [200],
    cells: cells(400),
    crossSiteExempt: "Stripe calls it cross-site; it authenticates by signature",
  }),
  loaderRow({ route: "hono:GET /api/auth/ok", path: "/api/auth/ok", ok: [200], cells: PUBLIC }),
  // Own session only (null when signed out).
  loaderRow({ route: "hono:GET /api/auth/get-session", path: "/api/auth/get-session", ok: [200], cells: PUBLIC }),
  // Not served: the product's forms do these with its own rules (issue 14: the JSON sign-in
  // skipped the archive screen, the JSON sign-out left notification sockets open).
  actionRow({
    route: "hono:POST /api/auth/sign-in/email",
    path: "/api/auth/sign-in/email",
    body: (w) => ({ json: { email: w.users.another.email, password: PASSWORD } }),
    ok: [200],
    cells: cells(404),
  }),
  actionRow({
    route: "hono:POST /api/auth/sign-out",
    path: "/api/auth/sign-out",
    body: { json: {} },
    ok: [200],
    cells: cells(404),
  }),
  actionRow({
    route: "hono:POST /api/auth/request-password-reset",
    path: "/api/auth/request-password-reset",
    body: (w) => ({ json: { email: w.users.another.email } }),
    ok: [200],
    cells: cells(404),
  }),
  actionRow({
    route: "hono:POST /api/auth/reset-password",
    path: "/api/auth/reset-password",
    body: () => ({ json: { token: "x".repeat(24), newPassword: "another-horse-2" } }),
    ok: [200],
    cells: cells(404),
  }),
  // Not served: the product's forms do these with its own rules.
  loaderRow({
    route: "hono:GET /api/auth/verify-email",
    path: (w) => `/api/auth/verify-email?token=${w.token}`,
    ok: [200],
    cells: cells(404),
  }),
  actionRow({
    route: "hono:POST /api/auth/sign-up/email",
    path: "/api/auth/sign-up/email",
    body: () => ({ json: { email: uniqueEmail(), password: PASSWORD, name: "x".repeat(5000) } }),
    ok: [200],
    cells: cells(404),
  }),
  actionRow({
    route: "hono:POST /api/auth/change-password",
    path: "/api/auth/change-password",
    body: { json: { currentPassword: PASSWORD, newPassword: "another-horse-2" } },
    ok: [200],
    cells: cells(404),
  }),
  actionRow({
    route: "hono:POST /api/auth/update-user",
    path: "/api/auth/update-user",
    body: () => ({ json: { name: "<script>alert(1)</script>" } }),
    ok: [200],
    cells: cells(404),
  }),
  actionRow({
    route: "hono:POST /api/auth/send-verification-email",
    path: "/api/auth/send-verification-email",
    body: (w) => ({ json: { email: w.unconfirmedEmail } }),
    ok: [200],
    cells: cells(404),
  }),
];

/** A presentation without a proof. */
function unsigned() {
  return { json: { "@context": ["https://www.w3.org/ns/credentials/v2"], type: ["VerifiablePresentation"] } };
}

/** A wallet's post to an exchange of the world's (or another id). */
function exchangeRow(
  intent: string,
  exchange: (world: World) => string,
  body: (world: World) => Body,
  outcomes: Record<Caller, Outcome>,
) {
  return actionRow({
    route: "hono:POST /credentials/exchanges/:id",
    intent,
    path: (w) => `/credentials/exchanges/${exchange(w)}`,
    body,
    ok: [200],
    cells: outcomes,
    crossSiteExempt:
      "a wallet calls it from anywhere; it authenticates by a DIDAuth signature over the exchange's challenge",
  });
}
