// The signed-in read every protected request starts with, in one D1 round trip
// (docs/decisions/036): the session cookie's signature is checked here, with the auth library's
// own secret and scheme, and one batch then reads the session row with its user, the viewer's
// profile and their organisations, keyed by the verified token. Only a session that is valid and
// not due for refresh is answered from that batch; anything else goes to better-auth's own
// lookup, which refreshes, expires or refuses it as it always has. A signed-in page's GET reads
// the notification bell in the same batch, and reads again without it if that batch fails.
import type { BetterAuthOptions } from "better-auth";
import { parseSigned } from "hono/utils/cookie";
import { ORGANIZATION_SWITCHER_PREFIX } from "#app/utils/constants.ts";
import type { Db } from "#db/client.ts";
import { sessionByTokenQuery, sessionUserQuery, userIdOfSession } from "#db/queries/accounts.ts";
import { memberOrganizationsRead, type MemberOrganizations } from "#db/queries/memberships/person-memberships.ts";
import { notificationsPart, type NotificationsPage } from "#db/queries/notifications.ts";
import { PAGE_SIZES, pageRequestFrom } from "#db/queries/paging.ts";
import { viewerProfileQuery, type ViewerProfile } from "#db/queries/profiles.ts";
import type { Auth, SessionData } from "./auth.server.ts";
import { errorSummary, log } from "./log.server.ts";

/**
 * The viewer's own rows: their profile (null when the account has none) and organisations.
 * `profileFailed`: the profile could not be read (the page says 'Error loading profile').
 */
export type ViewerRows = { profile: ViewerProfile | null; memberships: MemberOrganizations; profileFailed?: true };

/**
 * A signed-in request's session, with the viewer's rows when they were read in the same batch
 * (null when better-auth answered for a session the batch did not find, which the guard then
 * reads by user id), and the notification bell when it was asked for and read there too.
 */
export type SignedIn = { session: SessionData; viewer: ViewerRows | null; bell: NotificationsPage | null };

/**
 * The bell of a page whose notifications could not be read: empty, and the error logged. A quiet
 * failure (spec section 8): the bell is a convenience, the page it sits on must still render.
 */
export function bellFailed(requestId: string, error: unknown): NotificationsPage {
  log("error", "notifications failed to load", { requestId, error: errorSummary(error) });
  return { items: [], next: null, previous: null, total: 0, unread: 0 };
}

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
 * What the fast path needs of the auth library's settings. They follow from the environment and
 * the origin alone, so they are read once per isolate: creating the library builds its whole API
 * (2 to 3 ms of CPU on every signed-in request), which a session answered from the batch never uses.
 */
export type AuthSettings = {
  sessionCookie: string;
  dontRememberCookie: string;
  secret: string;
  updateAge: number;
  refreshDisabled: boolean;
  /** No cookie cache or secondary storage, which the batch would not see. */
  sessionsInDatabaseOnly: boolean;
};

const settingsByEnv = new WeakMap<object, Map<string, Promise<AuthSettings>>>();

/** The auth settings for `env` and `origin`, from the library's own context the first time. */
export function authSettingsOf(env: object, origin: string, auth: () => Auth): Promise<AuthSettings> {
  let byOrigin = settingsByEnv.get(env);
  if (!byOrigin) settingsByEnv.set(env, (byOrigin = new Map()));
  let settings = byOrigin.get(origin);
  if (!settings) {
    settings = auth().$context.then(({ authCookies, secret, sessionConfig, options }) => {
      const { secondaryStorage, session }: BetterAuthOptions = options;
      return {
        sessionCookie: authCookies.sessionToken.name,
        dontRememberCookie: authCookies.dontRememberToken.name,
        secret,
        updateAge: sessionConfig.updateAge,
        refreshDisabled: Boolean(session?.disableSessionRefresh),
        sessionsInDatabaseOnly: !secondaryStorage && !session?.cookieCache?.enabled,
      };
    });
    byOrigin.set(origin, settings);
    const cached = byOrigin;
    settings.catch(() => cached.delete(origin));
  }
  return settings;
}

/**
 * The request's signed-in session, read once per request by the load context (getSignedIn).
 * Null when signed out, or when the cookie is forged, expired or revoked. With `withBell` (a
 * signed-in page's GET), the first page of the viewer's notifications is read in the same batch.
 * The auth library itself (`auth`) is created only when it has to answer.
 */
export async function readSignedIn({
  request,
  settings,
  auth,
  db,
  requestId,
  withBell,
}: {
  request: Request;
  settings: AuthSettings;
  auth: () => Auth;
  db: Db;
  requestId: string;
  withBell: boolean;
}): Promise<SignedIn | null> {
  const token = await signedCookie(request, settings.secret, settings.sessionCookie);
  // "Keep me signed in" left unticked: better-auth never extends such a session (it simply ends).
  const refreshes = !(await signedCookie(request, settings.secret, settings.dontRememberCookie));
  const read = token ? await readByToken(db, request, token, requestId, withBell) : null;
  if (read && answersWithoutTheLibrary(read.session, settings, refreshes)) return read;
  // A token we signed with no session row (signed out, ended elsewhere, expired and deleted): the
  // library, reading the same table, would find none either; a second read would only cost a
  // round trip on every page a signed-out browser opens (issue 43).
  if (token && !read && settings.sessionsInDatabaseOnly) return null;
  // Missing, forged, expired, revoked, due for refresh, or a setup the batch does not model:
  // the auth library decides, exactly as before this fast path existed.
  const session = await auth().api.getSession({ headers: request.headers });
  if (!session) return null;
  const sameUser = read?.session.user.id === session.user.id;
  return { session, viewer: sameUser ? read.viewer : null, bell: sameUser ? read.bell : null };
}

/** The session token of the request's session cookie when we signed it (no D1 read), else null. */
export const signedSessionToken = (request: Request, settings: AuthSettings) =>
  signedCookie(request, settings.secret, settings.sessionCookie);

/**
 * The value of one of the auth library's signed cookies (the session token, or the "do not remember
 * me" mark) when its signature is the library's own: HMAC-SHA256 with the auth secret over the
 * value, `{value}.{base64 signature}`, which is what better-call's signed cookies are and what
 * Hono's parseSigned checks. Null when absent or not signed by us.
 */
async function signedCookie(request: Request, secret: string, name: string) {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  const value = (await parseSigned(header, secret, name))[name];
  return typeof value === "string" && value.length > 0 ? value : null;
}

/**
 * The session, user, profile and organisations of one token, in one round trip (one batch), with
 * the bell when `bellFor` names the request to log its failure under. A D1 batch fails as a
 * whole, so a failing bell statement would fail the guard with it: the batch is then sent again
 * without the bell, which stays empty, as it would have alone (spec section 8). A guard that
 * fails on its own fails on the second attempt too, and that error is the one thrown.
 */
async function readByToken(db: Db, request: Request, token: string, requestId: string, withBell: boolean) {
  if (!withBell) return readWithoutBell(db, request, token, requestId);
  try {
    return await readBatch(db, request, token, { withBell: true });
  } catch (error) {
    const read = await readWithoutBell(db, request, token, requestId);
    return read && { ...read, bell: bellFailed(requestId, error) };
  }
}

/**
 * The guard's batch without the bell; should it fail, once more without the profile: a session
 * whose profile alone cannot be read is still signed in, and its page says 'Error loading
 * profile' (spec section 8) rather than failing as a whole. Anything else failing fails the guard.
 */
async function readWithoutBell(db: Db, request: Request, token: string, requestId: string) {
  try {
    return await readBatch(db, request, token, { withBell: false });
  } catch (error) {
    const read = await readBatch(db, request, token, { withBell: false, withProfile: false }).catch(() => {
      throw error;
    });
    log("error", "profile failed to load", { requestId, error: errorSummary(error) });
    return read && { ...read, viewer: read.viewer && { ...read.viewer, profileFailed: true as const } };
  }
}

async function readBatch(
  db: Db,
  request: Request,
  token: string,
  { withBell, withProfile = true }: { withBell: boolean; withProfile?: boolean },
): Promise<SignedIn | null> {
  const userId = userIdOfSession(token);
  const organizations = memberOrganizationsRead(db, { userId, page: switcherPageOf(request) });
  const bell = withBell ? notificationsPart(db, userId) : null;
  // Separate statements rather than a join: D1's batch answers rows as objects keyed by column
  // name, so two tables' same-named columns (id, created_at) would overwrite each other.
  // Without the profile, a statement that reads no row (no session has an empty token) holds its place.
  const noRow = sessionByTokenQuery(db, "");
  const [pageStatement, totalStatement, activeStatement] = organizations.statements;
  const guard = [
    sessionByTokenQuery(db, token),
    sessionUserQuery(db, userId),
    withProfile ? viewerProfileQuery(db, userId) : noRow,
    pageStatement,
    totalStatement,
    // The active organisation is the profile's too (its pointer): left out with it.
    withProfile ? activeStatement : noRow,
  ] as const;
  const [[session], [user], [profile], pageRows, total, active, ...bellRows] = await db.batch([
    ...guard,
    ...(bell?.statements ?? []),
  ]);
  if (!session || !user) return null;
  return {
    session: { session, user } satisfies SessionData,
    viewer: {
      profile: withProfile ? ((profile as ViewerProfile | undefined) ?? null) : null,
      memberships: organizations.toResult([pageRows, total, active] as Parameters<typeof organizations.toResult>[0]),
    },
    bell: bell ? bell.read(bellRows) : null,
  };
}

/**
 * Whether the batch's session may be answered without the auth library: the session is unexpired
 * and not due for refresh, and sessions live in the database alone. better-auth extends a session
 * it `refreshes` (not one signed in without "Keep me signed in") once `expiresAt - expiresIn +
 * updateAge` has passed. A session near its 30th day has its expiry capped (decision 058), which
 * would make that rule due on every request; so the guard counts `updateAge` from the last
 * refresh itself (`updatedAt`), which the library's rule always finds due too, and a capped
 * session is refreshed (its "last seen" moved on) no more often than any other.
 */
function answersWithoutTheLibrary({ session }: SessionData, settings: AuthSettings, refreshes: boolean) {
  if (!settings.sessionsInDatabaseOnly) return false;
  const now = Date.now();
  const expiresAt = session.expiresAt.getTime();
  const refreshDueAt = session.updatedAt.getTime() + settings.updateAge * 1000;
  const refreshDue = refreshes && !settings.refreshDisabled && refreshDueAt <= now;
  return expiresAt > now && !refreshDue;
}
