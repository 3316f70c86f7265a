import { data, redirect, type AppLoadContext } from "@remix-run/cloudflare";
import type { Viewer } from "./viewer.ts";
import { setActiveOrganization } from "#db/queries/profiles.ts";
import { pathOf, securityEvent } from "./log.server.ts";
import { AUTH_COOKIE_PREFIX } from "./auth.server.ts";
import { signOut } from "#app/services/accounts/sessions.server.ts";
import { closeNotificationSockets } from "#app/utils/person-hub.server.ts";
import { loadNotifications } from "#db/queries/notifications.ts";
import {
  authSettingsOf,
  bellFailed,
  loadViewerRows,
  signedSessionToken,
  type ViewerRows,
} from "./viewer-session.server.ts";
import { STRONG_FACTOR_SETUP_PATH, stepUpPath } from "./admin-sign-in.ts";
import { strongFactorRequired, usedStrongFactor } from "./authorization.server.ts";
import { redirectWithToast } from "./cookies.server.ts";

/** Where to send a signed-out visitor: sign-in, then back here. */
export function signInRedirect(request: Request) {
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  return redirect(back === "/" ? "/auth" : `/auth?redirectTo=${encodeURIComponent(back)}`);
}

/**
 * The guard every protected loader and action starts with. `withBell`: the signed-in layout's
 * guard, which reads the notification bell in the session's batch (docs/decisions/036).
 */
export async function requireSession(
  request: Request,
  context: AppLoadContext,
  { withBell = false }: { withBell?: boolean } = {},
) {
  const session = (await context.getSignedIn({ withBell }))?.session;
  if (!session) {
    securityEvent("authz.denied", {
      reason: "signed out",
      status: 302,
      requestId: context.requestId,
      route: pathOf(request),
    });
    throw signInRedirect(request);
  }
  return session;
}

/**
 * The signed-in user, for routes that need no more than the id. An archived account is signed
 * out here too, as by requireViewer: it may reach only Settings (through requireViewer).
 */
export async function requireUser(request: Request, context: AppLoadContext) {
  const { user } = await requireSession(request, context);
  const { profile } = await viewerRowsOf(request, context, user.id);
  if (!profile || profile.deletedAt)
    await refuseArchived(request, context, user.id, profile ? "archived account" : "no profile");
  return user;
}

/**
 * The signed-in user and their profile, or null when signed out: for what is open to everyone
 * but greets a signed-in person differently (the landing page, the notification socket).
 */
export async function findSignedIn(request: Request, context: AppLoadContext) {
  const session = await context.getSession();
  if (!session) return null;
  const { profile } = await viewerRowsOf(request, context, session.user.id);
  return { user: session.user, session: session.session, profile };
}

/** Signs out an account that may not be here (archived, or without a profile) and sends it home. */
async function refuseArchived(
  request: Request,
  context: AppLoadContext,
  userId: string,
  reason: string,
): Promise<never> {
  securityEvent("authz.denied", { reason, status: 302, requestId: context.requestId, route: pathOf(request), userId });
  throw redirect("/", { headers: await signOutHeaders(request, context) });
}

/** Signed-in visitors have no business on the sign-in page. */
export async function requireAnonymous(context: AppLoadContext) {
  if (await context.getSession()) throw redirect("/dashboard");
}

/** Ends the session (the accounts service's sign-out), and the active organisation is forgotten. */
export async function signOutHeaders(request: Request, context: AppLoadContext) {
  const session = await context.getSession();
  if (session) {
    await setActiveOrganization(context.db, session.user.id, null);
    // This browser's tabs; the person's other sessions stay open.
    context.cloudflare.ctx.waitUntil(
      closeNotificationSockets(context, session.user.id, { sessions: [session.session.id] }),
    );
  }
  return signOut(context, request.headers);
}

/** What a signed-in page whose viewer's profile could not be read answers (the error page shows it). */
export const PROFILE_LOAD_FAILURE = {
  title: "Error loading profile",
  description: "Your profile could not be loaded. Please reload the page to try again.",
};

/**
 * The signed-in viewer with profile and organisations. Picks the first organisation as the
 * active one when none (or one the user has left) is set. An archived account may only reach
 * the pages that let it finish leaving (`allowArchived`); anywhere else it is signed out.
 */
export async function requireViewer(
  request: Request,
  context: AppLoadContext,
  { allowArchived = false, withBell = false }: { allowArchived?: boolean; withBell?: boolean } = {},
): Promise<Viewer> {
  const { user, session } = await requireSession(request, context, { withBell });
  const { profile, memberships, profileFailed } = await viewerRowsOf(request, context, user.id);
  // Logged where it failed; the page cannot be drawn without it (spec section 8's title).
  if (profileFailed) throw data(PROFILE_LOAD_FAILURE, { status: 500 });
  if (!profile) return refuseArchived(request, context, user.id, "no profile");
  if (profile.deletedAt && !allowArchived) return refuseArchived(request, context, user.id, "archived account");

  const { items: organizations, total, next, previous } = memberships;
  let activeOrganization = memberships.active;
  if (!activeOrganization && organizations[0] && !profile.deletedAt) {
    activeOrganization = organizations[0];
    await setActiveOrganization(context.db, user.id, activeOrganization.id);
  }
  return {
    id: user.id,
    email: user.email,
    sessionId: session.id,
    fullName: profile.fullName,
    userType: profile.userType,
    bio: profile.bio,
    avatarUrl: profile.avatarUrl,
    introVideoUrl: profile.introVideoUrl,
    introVideoThumbnailUrl: profile.introVideoThumbnailUrl,
    isPublic: profile.isPublic,
    searchIndexing: profile.searchIndexing,
    recognitionEmails: profile.recognitionEmails,
    archivedAt: profile.deletedAt,
    organizations,
    organizationPages: { total, next, previous },
    activeOrganization,
  };
}

/**
 * The admin pages' guard, after requireViewer: the active organisation, which the viewer
 * administers. Anyone else goes back to the dashboard; an admin the organisation holds back
 * goes to set up a strong factor, or to confirm the one they hold (`sendHeldBackAdmin`).
 */
export async function requireActiveOrganizationAdmin(request: Request, context: AppLoadContext, viewer: Viewer) {
  const active = viewer.activeOrganization;
  if (!active?.isAdmin) throw redirect("/dashboard");
  await sendHeldBackAdmin(request, context, viewer);
  return active;
}

/**
 * An admin whose active organisation asks its admins for a strong factor they do not hold
 * (decision 062) is sent to Settings' two-factor section, told why, before any admin page opens;
 * one who holds it but whose session did not use it (a password sign-in) is sent to confirm it,
 * then back here (decision 089). Read with the viewer's organisations and session: no round trip
 * of its own.
 */
export async function sendHeldBackAdmin(request: Request, context: AppLoadContext, viewer: Viewer) {
  const active = viewer.activeOrganization;
  if (!active?.isAdmin || !active.strongFactorRequired) return;
  if (!active.strongFactorMissing && usedStrongFactor(context, viewer.id)) return;
  const denied = (reason: string) =>
    securityEvent("authz.denied", {
      reason,
      status: 302,
      requestId: context.requestId,
      route: pathOf(request),
      userId: viewer.id,
      organizationId: active.id,
    });
  if (active.strongFactorMissing) {
    denied("admin without the strong factor the organisation requires");
    throw await redirectWithToast(context.env, request, STRONG_FACTOR_SETUP_PATH, strongFactorRequired(active.name));
  }
  denied("admin whose session used no strong factor");
  const url = new URL(request.url);
  // A page's GET comes back to itself; anything else to the dashboard it was posted from.
  const back = request.method === "GET" ? url.pathname + url.search : "/dashboard";
  throw redirect(stepUpPath(back));
}

/**
 * The notification bell of a signed-in page: the one read with the session when its guard asked
 * for it (`withBell`), else one read now (after an action, which may have changed it; or when
 * another loader's guard started the session's read first). Never throws: a bell that cannot be
 * read shows empty and is logged (spec section 8).
 */
export async function notificationBell(context: AppLoadContext, userId: string) {
  const bell = (await context.getSignedIn())?.bell;
  if (bell) return bell;
  return loadNotifications(context.db, userId).catch((error: unknown) => bellFailed(context.requestId, error));
}

/** The requests whose viewer rows (read with the session) a guard has already used. */
const viewerRowsUsed = new WeakSet<AppLoadContext>();

/**
 * The viewer's profile and organisations: those read in the session's batch (docs/decisions/036),
 * shared by every guard of a request that only reads (a page's loaders). A request that writes
 * gives them to its first guard only (the action's): loaders rendering after the action read
 * again, since the action may have changed them.
 */
async function viewerRowsOf(request: Request, context: AppLoadContext, userId: string): Promise<ViewerRows> {
  const first = !viewerRowsUsed.has(context);
  viewerRowsUsed.add(context);
  const read = (await context.getSignedIn())?.viewer;
  const readsOnly = request.method === "GET" || request.method === "HEAD";
  return read && (first || readsOnly) ? read : loadViewerRows(context.db, request, userId);
}

// Secure contexts prefix the name with __Secure-.
const SESSION_COOKIE = new RegExp(`(?:^|;\\s*)(?:__Secure-)?${AUTH_COOKIE_PREFIX}\\.session_token=`);

/** Whether a Set-Cookie line sets (or clears) the session cookie. */
export function isSessionCookieLine(line: string) {
  return SESSION_COOKIE_LINE.test(line);
}
const SESSION_COOKIE_LINE = new RegExp(`^(?:__Secure-)?${AUTH_COOKIE_PREFIX}\\.session_token=`);

/** Whether the request carries a session cookie at all (cheap; says nothing of its validity). */
export function hasSessionCookie(request: Request) {
  return SESSION_COOKIE.test(request.headers.get("Cookie") ?? "");
}

/**
 * Whether the request carries a session cookie signed with the auth library's secret: checked
 * without D1 (one HMAC), so an unsigned or forged cookie costs nothing and counts as none. A
 * signed cookie of a session since ended still counts: only an account ever signed in has one.
 */
export async function hasVerifiedSessionCookie(request: Request, context: AppLoadContext) {
  if (!hasSessionCookie(request)) return false;
  const settings = await authSettingsOf(context.env, new URL(request.url).origin, () => context.auth);
  return (await signedSessionToken(request, settings)) !== null;
}

/** Who reads a public page, asked only when it matters: without a session, nobody (no lookup). */
export function readerOf(request: Request, context: AppLoadContext) {
  return async () => (hasSessionCookie(request) ? ((await context.getUser())?.id ?? null) : null);
}
