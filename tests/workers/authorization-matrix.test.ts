import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
// @ts-ignore -- the Remix server build exists only after `npm run build`.
import * as build from "../../build/server/index.js";
import { AUTH_API_ENDPOINTS, app } from "#workers/app.ts";
import {
  ORIGIN,
  PASSWORD,
  PNG_BYTES,
  confirmationToken,
  createAccount,
  get,
  inviteCode,
  newClientIp,
  passwordResetToken,
  postForm,
  signUp,
  uniqueEmail,
} from "./helpers.ts";
import { credentialOf, giveAndAccept } from "./credentials-helpers.ts";
import { addMember, createOrganisation, giveAchievement, membershipOf } from "./factories.ts";

// The authorization matrix (issue 9, items 1 and 5). One table lists every loader and action
// intent of every route module and every Hono route, against every kind of caller; each cell is
// run against one seeded world (storage is rolled back after each test, so every cell starts
// from the same world) and checked for its status and, when it is not allowed to change
// anything, for an unchanged D1 and R2. The same table drives the cross-site request tests.

const CALLERS = [
  "anon",
  "individual",
  "orgUser",
  "member",
  "admin",
  "otherAdmin",
  "recipient",
  "another",
  "archived",
] as const;
type Caller = (typeof CALLERS)[number];

/**
 * What a caller gets:
 * - "ok": allowed; the status is one of the row's `ok` statuses and changes may happen;
 * - "noop": allowed to ask, but nothing is the caller's to change (a no-op or a refusal toast);
 * - "signin": redirected to /auth (signed out);
 * - "signout": an archived account is signed out and sent home;
 * - "dashboard": a signed-in caller sent away from the sign-in page;
 * - a number: refused with that status.
 * Everything but "ok" must leave D1 and R2 exactly as they were.
 */
type Outcome = "ok" | "noop" | "signin" | "signout" | "dashboard" | 400 | 401 | 403 | 404;

type World = Awaited<ReturnType<typeof seedWorld>>;
type Body = Record<string, string> | FormData | { json: unknown };
type Call = { method: "GET" | "POST" | "OPTIONS"; path: string; body?: Body; headers?: Record<string, string> };

type Row = {
  /** A Remix route id ("routes/…") or a Hono route ("hono:METHOD path"). */
  route: string;
  kind: "loader" | "action";
  /** The action's intent (or a short label of what is asked). */
  intent?: string;
  call: (world: World, caller: Caller) => Call;
  /** Statuses an allowed call answers with. */
  ok: number[];
  cells: Record<Caller, Outcome>;
  /** Exempt from the cross-site check, and why. */
  crossSiteExempt?: string;
  /** A WebSocket answer must be accepted and closed before the test ends. */
  webSocket?: boolean;
};

/** Expands a shorthand: `rest` for every caller not named. */
function cells(rest: Outcome, named: Partial<Record<Caller, Outcome>> = {}): Record<Caller, Outcome> {
  return Object.fromEntries(CALLERS.map((caller) => [caller, named[caller] ?? rest])) as Record<Caller, Outcome>;
}
const PUBLIC = cells("ok");
/** Any signed-in, active account, on its own data. */
const OWN = cells("ok", { anon: "signin", archived: "signout" });
/** Only the admin of organisation A. */
const ADMIN_OF_A = cells(403, { anon: "signin", archived: "signout", admin: "ok" });
/** Only the recipient of the target achievement. */
const RECIPIENT = cells(403, { anon: "signin", archived: "signout", recipient: "ok" });
/** The sign-in page and its forms are for signed-out visitors. */
const ANONYMOUS = cells("dashboard", { anon: "ok" });

/** A loader row: a GET of the path (built from the world when it names seeded rows). */
function loaderRow({ path, ...row }: Omit<Row, "kind" | "call"> & { path: string | ((world: World) => string) }): Row {
  return {
    ...row,
    kind: "loader",
    call: (world) => ({ method: "GET", path: typeof path === "string" ? path : path(world) }),
  };
}

/** A value of a row, or how to build it from the world when it names seeded rows (or must be fresh per cell). */
type FromWorld<T> = T | ((world: World) => T);
const fromWorld = <T>(value: FromWorld<T>, world: World) =>
  typeof value === "function" ? (value as (world: World) => T)(world) : value;

/** An action row: a POST of the body (and headers) to the path. */
function actionRow({
  path,
  body,
  headers,
  ...row
}: Omit<Row, "kind" | "call"> & {
  path: FromWorld<string>;
  body?: FromWorld<Body>;
  headers?: FromWorld<Record<string, string>>;
}): Row {
  return {
    ...row,
    kind: "action",
    call: (world) => ({
      method: "POST",
      path: fromWorld(path, world),
      ...(body === undefined ? {} : { body: fromWorld(body, world) }),
      ...(headers === undefined ? {} : { headers: fromWorld(headers, world) }),
    }),
  };
}

const form = (fields: Record<string, string>) => fields;

const png = () => new File([PNG_BYTES], "picture.png", { type: "image/png" });
const today = () => new Date().toISOString().slice(0, 10);

const ROWS: Row[] = [
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
  // The confirmation token is the credential: whoever holds it may confirm.
  actionRow({
    route: "routes/auth_.confirm",
    intent: "valid token",
    path: "/auth/confirm",
    body: (w) => form({ token: w.token }),
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

  // ---- Settings (an archived account may still reach it, to finish leaving) ----
  loaderRow({ route: "routes/_app.settings", path: "/settings", ok: [200], cells: cells("ok", { anon: "signin" }) }),
  actionRow({
    route: "routes/_app.settings",
    intent: "update-profile",
    path: "/settings",
    body: form({ intent: "update-profile", fullName: "Matrix Name", bio: "" }),
    ok: [302],
    cells: cells("ok", { anon: "signin", archived: "noop" }),
  }),
  actionRow({
    route: "routes/_app.settings",
    intent: "change-password",
    path: "/settings",
    body: form({
      intent: "change-password",
      currentPassword: PASSWORD,
      newPassword: "another-horse-2",
      confirmPassword: "another-horse-2",
    }),
    ok: [302],
    cells: cells("ok", { anon: "signin", archived: "noop" }),
  }),
  actionRow({
    route: "routes/_app.settings",
    intent: "send-feedback",
    path: "/settings",
    body: form({ intent: "send-feedback", message: "Matrix feedback", rating: "5" }),
    ok: [302],
    cells: cells("ok", { anon: "signin", archived: "noop" }),
  }),
  actionRow({
    route: "routes/_app.settings",
    intent: "archive",
    path: "/settings",
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
  actionRow({
    route: "routes/_app.settings",
    intent: "update-preferences",
    path: "/settings",
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
    body: () => multipart({ intent: "upload-intro-video" }, {}),
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

// ---- The world ----

function multipart(fields: Record<string, string>, files: Record<string, File>, fileFirst: string[] = []) {
  const body = new FormData();
  for (const name of fileFirst) body.append(name, files[name]!);
  for (const [name, file] of Object.entries(files)) if (!fileFirst.includes(name)) body.append(name, file);
  // The intent comes last, as the submit button sends it.
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return body;
}

/** The token with its signature changed. */
function forge(token: string) {
  const last = token.at(-2) === "A" ? "B" : "A";
  return `${token.slice(0, -2)}${last}${token.at(-1)}`;
}

function checkoutEvent() {
  return {
    id: `evt_${crypto.randomUUID()}`,
    object: "event",
    type: "checkout.session.completed",
    created: Math.floor(Date.now() / 1000),
    data: { object: { mode: "subscription" } },
  };
}

async function seedWorld() {
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
  // The individual keeps a private passport; the archived account is archived (its session lives on).
  await env.DB.prepare("update profiles set is_public = 0 where id = ?").bind(individual.id).run();
  expect((await postForm("/settings", { intent: "archive" }, { cookie: archived.cookie })).status).toBe(302);

  const recipientMembership = recipient.membershipId;
  // The recipient's membership has an active (simulated) subscription, to manage and cancel.
  await env.DB.prepare(
    "update organization_members set subscription_status = 'active', stripe_customer_id = 'cus_local_matrix', stripe_subscription_id = 'sub_local_matrix' where id = ?",
  )
    .bind(recipientMembership)
    .run();

  // An account waiting for confirmation, with its token.
  const unconfirmedEmail = uniqueEmail("unconfirmed");
  await signUp({ email: unconfirmedEmail });
  const token = (await confirmationToken(unconfirmedEmail))!;

  // A forgot-password link of another's account.
  await postForm("/auth/forgot-password", { intent: "forgot-password", email: another.email });
  const resetToken = (await passwordResetToken(another.email))!;

  const mediaKey = `avatars/${recipient.id}/avatar.png`;
  await env.MEDIA.put(mediaKey, PNG_BYTES, { httpMetadata: { contentType: "image/png" } });

  // Every active account has seen its dashboard once (which picks its active organisation).
  for (const user of [admin, otherAdmin, orgUser, individual, member, recipient, another]) {
    expect((await get("/dashboard", user.cookie)).status).toBe(200);
  }
  const users = { individual, orgUser, member, admin, otherAdmin, recipient, another, archived };
  return {
    users,
    orgA,
    inviteCode: await inviteCode(orgA),
    token,
    resetToken,
    unconfirmedEmail,
    mediaKey,
    pendingMembership: await membershipOf({ organizationId: orgA, userId: pending.id }),
    memberMembership: member.membershipId,
    recipientMembership,
    credential,
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

// ---- Sending a cell and checking it ----

function send(world: World, caller: Caller, call: Call, headers: Record<string, string> = {}) {
  const cookie = caller === "anon" ? undefined : world.users[caller].cookie;
  const init: RequestInit = {
    method: call.method,
    redirect: "manual",
    headers: {
      // As a browser sends it: same-origin, Origin and Host, from a distinct address.
      Origin: ORIGIN,
      Host: new URL(ORIGIN).host,
      "Sec-Fetch-Site": "same-origin",
      "cf-connecting-ip": newClientIp(),
      ...(cookie ? { Cookie: cookie } : {}),
      ...call.headers,
      ...headers,
    },
  };
  if (call.body instanceof FormData) init.body = call.body;
  else if (call.body && "json" in call.body) {
    init.body = JSON.stringify(call.body.json);
    (init.headers as Record<string, string>)["Content-Type"] = "application/json";
  } else if (call.body) {
    init.body = new URLSearchParams(call.body as Record<string, string>);
    (init.headers as Record<string, string>)["Content-Type"] = "application/x-www-form-urlencoded";
  }
  return SELF.fetch(`${ORIGIN}${call.path}`, init);
}

/** Every table's rows (rate-limit counters aside), and every R2 object. */
async function snapshot(world: World) {
  const tables = await env.DB.prepare(
    "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name not in ('d1_migrations', 'rate_limits') order by name",
  ).all<{ name: string }>();
  const rows: Record<string, string> = {};
  for (const { name } of tables.results) {
    let result = (await env.DB.prepare(`select * from "${name}"`).all()).results;
    // Signing an archived account out ends its session: that is the point of the redirect.
    if (name === "sessions") result = result.filter((row) => row.user_id !== world.users.archived.id);
    rows[name] = JSON.stringify(result);
  }
  const objects: string[] = [];
  let cursor: string | undefined;
  do {
    const listing = await env.MEDIA.list({ cursor });
    objects.push(...listing.objects.map((object) => `${object.key} ${object.etag}`));
    cursor = listing.truncated ? listing.cursor : undefined;
  } while (cursor);
  return { rows, objects: objects.sort() };
}

/** Fails naming the tables (or R2) that changed, then shows how. */
async function expectUnchanged(world: World, before: Awaited<ReturnType<typeof snapshot>>) {
  const after = await snapshot(world);
  const changed = Object.keys(before.rows).filter((table) => before.rows[table] !== after.rows[table]);
  if (before.objects.join() !== after.objects.join()) changed.push("R2");
  expect(
    changed,
    JSON.stringify(changed.map((table) => [table, before.rows[table], after.rows[table]])).slice(0, 3000),
  ).toEqual([]);
}

function checkOutcome(row: Row, outcome: Outcome, response: Response) {
  const location = response.headers.get("Location");
  switch (outcome) {
    case "ok":
      expect(row.ok).toContain(response.status);
      break;
    case "noop":
      // A refusal toast is answered on the same page with 400 (decision 017), or as the row's ok.
      expect([...row.ok, 400]).toContain(response.status);
      break;
    case "signin":
      expect(response.status).toBe(302);
      expect(location).toMatch(/^\/auth(\?redirectTo=.+)?$/);
      break;
    case "signout":
      expect(response.status).toBe(302);
      expect(location).toBe("/");
      expect(
        response.headers
          .getSetCookie()
          .some((line) => /passport\.session_token=;|passport\.session_token=.*max-age=0/i.test(line)),
      ).toBe(true);
      break;
    case "dashboard":
      expect(response.status).toBe(302);
      expect(location).toBe("/dashboard");
      break;
    default:
      expect(response.status).toBe(outcome);
  }
}

async function finish(row: Row, response: Response) {
  if (row.webSocket && response.webSocket) {
    response.webSocket.accept();
    response.webSocket.close(1000, "done");
  } else await response.arrayBuffer();
}

let world: World;
beforeAll(async () => {
  world = await seedWorld();
});

const label = (row: Row) => `${row.route} ${row.kind}${row.intent ? ` (${row.intent})` : ""}`;

describe("the authorization matrix", () => {
  for (const row of ROWS) {
    describe(label(row), () => {
      for (const caller of CALLERS) {
        const outcome = row.cells[caller];
        it(`${caller}: ${outcome}`, async () => {
          const before = await snapshot(world);
          const response = await send(world, caller, row.call(world, caller));
          checkOutcome(row, outcome, response);
          // Every page, whatever its status, refuses to be framed.
          if (response.headers.get("Content-Type")?.startsWith("text/html")) {
            expect(response.headers.get("X-Frame-Options")).toBe("DENY");
            expect(response.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
          }
          await finish(row, response);
          if (outcome !== "ok") await expectUnchanged(world, before);
        });
      }
    });
  }
});

describe("cross-site requests (every mutation in the table)", () => {
  const mutations = ROWS.filter((row) => row.kind === "action");
  const foreign: [string, Record<string, string>][] = [
    ["a foreign Origin", { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" }],
    ["a foreign Origin without fetch metadata", { Origin: "https://evil.example", "Sec-Fetch-Site": "" }],
    ["an opaque (null) Origin", { Origin: "null" }],
    ["Sec-Fetch-Site: cross-site", { "Sec-Fetch-Site": "cross-site" }],
  ];
  for (const row of mutations) {
    // The caller for whom the call would succeed (else the first one named), so only the check stops it.
    const caller = CALLERS.find((c) => row.cells[c] === "ok") ?? "admin";
    for (const [name, headers] of foreign) {
      it(`${label(row)} as ${caller} with ${name}: ${row.crossSiteExempt ? "exempt" : 403}`, async () => {
        const before = await snapshot(world);
        const sent = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== ""));
        const call = row.call(world, caller);
        const response = await send(world, caller, call, sent);
        if (row.crossSiteExempt) {
          // Exempt from the Origin check, and still refused without a valid signature.
          expect(response.status).toBe(400);
        } else {
          expect(response.status).toBe(403);
        }
        await response.arrayBuffer();
        await expectUnchanged(world, before);
      });
    }
  }

  it("the WebSocket upgrade refuses a foreign or missing Origin, even with a valid session", async () => {
    for (const origin of ["https://evil.example", "null", undefined]) {
      const response = await SELF.fetch(`${ORIGIN}/api/notifications/socket`, {
        headers: { Upgrade: "websocket", Cookie: world.users.member.cookie, ...(origin ? { Origin: origin } : {}) },
      });
      expect(response.status).toBe(403);
      expect(response.webSocket).toBeNull();
    }
  });

  it("pages cannot be framed", async () => {
    for (const [path, cookie] of [
      ["/", undefined],
      ["/auth", undefined],
      ["/dashboard", world.users.admin.cookie],
      [`/passport/${world.users.recipient.id}`, undefined],
    ] as const) {
      const response = await get(path, cookie);
      expect(response.headers.get("X-Frame-Options")).toBe("DENY");
      expect(response.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
      await response.arrayBuffer();
    }
  });
});

describe("the table covers every route", () => {
  const listed = (kind: Row["kind"]) => new Set(ROWS.filter((row) => row.kind === kind).map((row) => row.route));

  it("every loader and action a route module exports", () => {
    const routes = (build as unknown as { routes: Record<string, { module: { loader?: unknown; action?: unknown } }> })
      .routes;
    const missing: string[] = [];
    for (const [id, route] of Object.entries(routes)) {
      if (id === "root") continue;
      if (route.module.loader && !listed("loader").has(id)) missing.push(`${id} loader`);
      if (route.module.action && !listed("action").has(id)) missing.push(`${id} action`);
    }
    expect(missing).toEqual([]);
    // And nothing listed that no longer exists.
    const remix = ROWS.filter((row) => row.route.startsWith("routes/"));
    expect(remix.filter((row) => !routes[row.route]?.module[row.kind]).map(label)).toEqual([]);
  });

  it("every Hono route and every served auth endpoint", () => {
    const hono = new Set(
      ROWS.filter((row) => row.route.startsWith("hono:")).map((row) => row.route.slice("hono:".length)),
    );
    const handlers = app.routes
      .filter((route) => route.path !== "/*" && route.path !== "*" && route.method !== "ALL")
      .map((route) => `${route.method} ${route.path.replace(/(.)\/$/, "$1")}`)
      .filter((route) => !route.includes("/api/auth/"));
    expect(handlers.filter((route) => !hono.has(route))).toEqual([]);
    expect([...AUTH_API_ENDPOINTS].filter((endpoint) => !hono.has(endpoint))).toEqual([]);
  });

  it("every action row is checked for cross-site requests", () => {
    expect(ROWS.filter((row) => row.kind === "action" && row.call(world, "admin").method !== "POST")).toEqual([]);
  });
});
