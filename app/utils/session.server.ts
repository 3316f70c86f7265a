import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { loadMemberOrganizations } from "#db/queries/memberships.ts";
import { findViewerProfile, setActiveOrganization } from "#db/queries/profiles.ts";
import { PAGE_SIZES, pageRequestFrom } from "#db/queries/paging.ts";
import { ORGANIZATION_SWITCHER_PREFIX } from "#app/utils/constants.ts";
import { pathOf, securityEvent } from "./log.server.ts";
import { AUTH_COOKIE_PREFIX } from "./auth.server.ts";
import { closeNotificationSockets } from "#app/utils/notification-hub.server.ts";

/** Where to send a signed-out visitor: sign-in, then back here. */
export function signInRedirect(request: Request) {
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  return redirect(back === "/" ? "/auth" : `/auth?redirectTo=${encodeURIComponent(back)}`);
}

/** The guard every protected loader and action starts with. */
export async function requireSession(request: Request, context: AppLoadContext) {
  const session = await context.getSession();
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
  const profile = await findViewerProfile(context.db, user.id);
  if (!profile || profile.deletedAt)
    await refuseArchived(request, context, user.id, profile ? "archived account" : "no profile");
  return user;
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

/** Ends the session: the auth library's sign-out, and the active organisation is forgotten. */
export async function signOutHeaders(request: Request, context: AppLoadContext) {
  const session = await context.getSession();
  if (session) {
    await setActiveOrganization(context.db, session.user.id, null);
    context.cloudflare.ctx.waitUntil(closeNotificationSockets(context, session.user.id));
  }
  const response = await context.auth.api.signOut({ headers: request.headers, asResponse: true });
  const headers = new Headers();
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return headers;
}

/**
 * The signed-in viewer with profile and organisations. Picks the first organisation as the
 * active one when none (or one the user has left) is set. An archived account may only reach
 * the pages that let it finish leaving (`allowArchived`); anywhere else it is signed out.
 */
export async function requireViewer(
  request: Request,
  context: AppLoadContext,
  { allowArchived = false }: { allowArchived?: boolean } = {},
) {
  const { user, session } = await requireSession(request, context);
  // The switcher pages through its own parameters on whatever page it is open.
  const switcherPage = pageRequestFrom(
    new URL(request.url).searchParams,
    ORGANIZATION_SWITCHER_PREFIX,
    PAGE_SIZES.memberOrganizations,
  );
  const [profile, memberships] = await Promise.all([
    findViewerProfile(context.db, user.id),
    loadMemberOrganizations(context.db, { userId: user.id, page: switcherPage }),
  ]);
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

export type Viewer = Awaited<ReturnType<typeof requireViewer>>;

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
