// The signed-in read every protected request starts with, in one D1 round trip
// (docs/decisions/036): the session cookie's signature is checked here, with the auth library's
// own secret and scheme, and one batch then reads the session row with its user, the viewer's
// profile and their organisations, keyed by the verified token. Only a session that is valid and
// not due for refresh is answered from that batch; anything else goes to better-auth's own
// lookup, which refreshes, expires or refuses it as it always has.
import type { BetterAuthOptions } from "better-auth";
import { parseSigned } from "hono/utils/cookie";
import { ORGANIZATION_SWITCHER_PREFIX } from "#app/utils/constants.ts";
import type { Db } from "#db/client.ts";
import { sessionByTokenQuery, sessionUserQuery, userIdOfSession } from "#db/queries/accounts.ts";
import { memberOrganizationsRead, type MemberOrganizations } from "#db/queries/memberships.ts";
import { PAGE_SIZES, pageRequestFrom } from "#db/queries/paging.ts";
import { viewerProfileQuery, type ViewerProfile } from "#db/queries/profiles.ts";
import type { Auth, SessionData } from "./auth.server.ts";

/** The viewer's own rows: their profile (null when the account has none) and organisations. */
export type ViewerRows = { profile: ViewerProfile | null; memberships: MemberOrganizations };

/**
 * A signed-in request's session, with the viewer's rows when they were read in the same batch
 * (null when better-auth answered for a session the batch did not find, which the guard then
 * reads by user id).
 */
export type SignedIn = { session: SessionData; viewer: ViewerRows | null };

/** The switcher pages through its own parameters on whatever page it is open. */
function switcherPageOf(request: Request) {
  return pageRequestFrom(
    new URL(request.url).searchParams,
    ORGANIZATION_SWITCHER_PREFIX,
    PAGE_SIZES.memberOrganizations,
  );
}

/** The viewer's rows by user id, in one batch: for a guard that could not use the session's batch. */
export async function loadViewerRows(db: Db, request: Request, userId: string): Promise<ViewerRows> {
  const organizations = memberOrganizationsRead(db, { userId, page: switcherPageOf(request) });
  const [profile, ...memberships] = await db.batch([viewerProfileQuery(db, userId), ...organizations.statements]);
  return { profile: profile[0] ?? null, memberships: organizations.toResult(memberships) };
}

/**
 * The request's signed-in session, read once per request by the load context (getSignedIn).
 * Null when signed out, or when the cookie is forged, expired or revoked.
 */
export async function readSignedIn({
  request,
  auth,
  db,
}: {
  request: Request;
  auth: Auth;
  db: Db;
}): Promise<SignedIn | null> {
  const authContext = await auth.$context;
  const { sessionToken, dontRememberToken } = authContext.authCookies;
  const token = await signedCookie(request, authContext, sessionToken.name);
  // "Keep me signed in" left unticked: better-auth never extends such a session (it simply ends).
  const refreshes = !(await signedCookie(request, authContext, dontRememberToken.name));
  const read = token ? await readByToken(db, request, token) : null;
  if (read && answersWithoutTheLibrary(read.session, authContext, refreshes)) {
    return { session: read.session, viewer: read.viewer };
  }
  // Missing, forged, expired, revoked, due for refresh, or a setup the batch does not model:
  // the auth library decides, exactly as before this fast path existed.
  const session = await auth.api.getSession({ headers: request.headers });
  if (!session) return null;
  return { session, viewer: read?.session.user.id === session.user.id ? read.viewer : null };
}

type AuthContext = Awaited<Auth["$context"]>;

/**
 * The value of one of the auth library's signed cookies (the session token, or the "do not remember
 * me" mark) when its signature is the library's own: HMAC-SHA256 with the auth secret over the
 * value, `{value}.{base64 signature}`, which is what better-call's signed cookies are and what
 * Hono's parseSigned checks. Null when absent or not signed by us.
 */
async function signedCookie(request: Request, authContext: AuthContext, name: string) {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  const value = (await parseSigned(header, authContext.secret, name))[name];
  return typeof value === "string" && value.length > 0 ? value : null;
}

/** The session, user, profile and organisations of one token, in one round trip (one batch). */
async function readByToken(db: Db, request: Request, token: string) {
  const userId = userIdOfSession(token);
  const organizations = memberOrganizationsRead(db, { userId, page: switcherPageOf(request) });
  // Separate statements rather than a join: D1's batch answers rows as objects keyed by column
  // name, so two tables' same-named columns (id, created_at) would overwrite each other.
  const [[session], [user], [profile], ...memberships] = await db.batch([
    sessionByTokenQuery(db, token),
    sessionUserQuery(db, userId),
    viewerProfileQuery(db, userId),
    ...organizations.statements,
  ]);
  if (!session || !user) return null;
  return {
    session: { session, user } satisfies SessionData,
    viewer: { profile: profile ?? null, memberships: organizations.toResult(memberships) },
  };
}

/**
 * Whether the batch's session may be answered without the auth library: the session is unexpired
 * and not due for refresh (better-auth extends a session it `refreshes` once `updateAge` has passed
 * since it last did, with the rule copied here; one signed in without "Keep me signed in" it never
 * extends), and sessions live in the database alone (no cookie cache or secondary storage, which
 * the batch would not see).
 */
function answersWithoutTheLibrary({ session }: SessionData, authContext: AuthContext, refreshes: boolean) {
  const { sessionConfig } = authContext;
  const options: BetterAuthOptions = authContext.options;
  if (options.secondaryStorage || options.session?.cookieCache?.enabled) return false;
  const now = Date.now();
  const expiresAt = session.expiresAt.getTime();
  const refreshDueAt = expiresAt - sessionConfig.expiresIn * 1000 + sessionConfig.updateAge * 1000;
  const refreshDue = refreshes && !options.session?.disableSessionRefresh && refreshDueAt <= now;
  return expiresAt > now && !refreshDue;
}
