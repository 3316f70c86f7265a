import type { AppLoadContext } from "@remix-run/cloudflare";
import { createDb, type Db } from "#db/client.ts";
import { createAuth, type Auth, type SessionData, type SessionUser } from "#app/utils/auth.server.ts";
import { readEnv, type AppEnv } from "#app/utils/env.server.ts";
import { hasSessionCookie } from "#app/utils/session.server.ts";
import { placeOf } from "#app/utils/session-devices.server.ts";
import { authSettingsOf, readSignedIn, type SignedIn } from "#app/utils/viewer-session.server.ts";
import { isSafeMethod } from "./middleware/security.ts";

export interface CloudflareContext {
  env: Env;
  ctx: Pick<ExecutionContext, "waitUntil" | "passThroughOnException">;
  cf?: CfProperties;
}

/** Where a request's D1 session starts: a bookmark it carries, or a constraint (docs/decisions/029). */
export type D1Start = D1SessionConstraint | D1SessionBookmark;

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    cloudflare: CloudflareContext;
    env: AppEnv;
    /** drizzle over this request's D1 session, opened on first use. */
    db: Db;
    auth: Auth;
    /**
     * The signed-in session with the viewer's rows, read at most once per request and only when
     * asked: one D1 round trip on the normal path (docs/decisions/036). `withBell` (the signed-in
     * layout's guard) reads the notification bell in the same batch; it counts only on the call
     * that starts the read, and only on a GET or HEAD (after an action the bell is read afresh).
     */
    getSignedIn(options?: { withBell?: boolean }): Promise<SignedIn | null>;
    /** The signed-in session (of getSignedIn). */
    getSession(): Promise<SessionData | null>;
    /**
     * The signed-in session once getSignedIn has answered (undefined before): what an admin check
     * reads of how the caller signed in, synchronously, after the route's guard (decision 089).
     */
    signedInSession(): SessionData | null | undefined;
    getUser(): Promise<SessionUser | null>;
    /** The D1 session's latest bookmark, or null when the request never reached D1. */
    d1Bookmark(): D1SessionBookmark | null;
    /** The CSP nonce for this response's inline scripts (absent under the Vite dev server). */
    nonce?: string;
    requestId: string;
  }
}

/** The validated variables, once per isolate: every request of an isolate has the same bindings. */
const appEnvCache = new WeakMap<Env, AppEnv>();
export function appEnvOf(bindings: Env) {
  let env = appEnvCache.get(bindings);
  if (!env) {
    env = readEnv(bindings as unknown as Record<string, unknown>);
    appEnvCache.set(bindings, env);
  }
  return env;
}

/**
 * The database of one unit of work: drizzle over one D1 session, so that every read sees the
 * writes before it (sequential consistency) while reads may be served by a nearby replica.
 * Opened on first use: a request answered without D1 (media, a cached page) opens nothing.
 */
function lazyD1Session(bindings: Env, start: D1Start) {
  let session: D1DatabaseSession | undefined;
  let db: Db | undefined;
  return {
    db: () => (db ??= createDb((session = bindings.DB.withSession(start)))),
    bookmark: () => session?.getBookmark() ?? null,
  };
}

/**
 * The one way a load context is built: for Remix, the Worker's sub-apps (through the
 * `loadContext` middleware) and the Vite dev server. Without a `d1Start` the session starts at
 * the primary, which is always consistent (the dev server, tests and background work).
 */
export function getLoadContext({
  request,
  context,
  nonce,
  requestId = crypto.randomUUID(),
  d1Start = "first-primary",
}: {
  request: Request;
  context: { cloudflare: CloudflareContext };
  nonce?: string;
  requestId?: string;
  d1Start?: D1Start;
}): AppLoadContext {
  const env = appEnvOf(context.cloudflare.env);
  const d1 = lazyD1Session(context.cloudflare.env, d1Start);
  // The auth library builds its whole API when created: only requests that use it pay for that
  // (a visitor's public passport or landing page never does).
  let auth: Auth | undefined;
  const getAuth = () =>
    (auth ??= createAuth({
      db: d1.db(),
      env,
      origin: new URL(request.url).origin,
      place: placeOf(context.cloudflare.cf),
      waitUntil: (promise) => context.cloudflare.ctx.waitUntil(promise),
    }));
  let signedIn: Promise<SignedIn | null> | undefined;
  let answered: SignedIn | null | undefined;
  const getSignedIn = ({ withBell = false } = {}) =>
    (signedIn ??= authSettingsOf(env, new URL(request.url).origin, getAuth)
      .then((settings) =>
        readSignedIn({
          request,
          settings,
          auth: getAuth,
          db: d1.db(),
          requestId,
          withBell: withBell && isSafeMethod(request.method),
        }),
      )
      .then((read) => (answered = read)));
  const getSession = () => getSignedIn().then((read) => read?.session ?? null);
  return {
    cloudflare: context.cloudflare,
    env,
    get db() {
      return d1.db();
    },
    get auth() {
      return getAuth();
    },
    getSignedIn,
    getSession,
    signedInSession: () => (answered === undefined ? undefined : (answered?.session ?? null)),
    getUser: () => getSession().then((data) => data?.user ?? null),
    d1Bookmark: d1.bookmark,
    nonce,
    requestId,
  };
}

/** What work outside a request (the cron handler) needs: settings and a database at the primary. */
export function backgroundContext(cloudflare: CloudflareContext) {
  const d1 = lazyD1Session(cloudflare.env, "first-primary");
  return { cloudflare, env: appEnvOf(cloudflare.env), db: d1.db() };
}

/**
 * Where a Worker request's reads start (docs/decisions/029): the bookmark the browser was last
 * given, so a person reads their own writes; else an anonymous page view reads from whichever
 * copy is nearest, and anything signed in or writing starts at the primary.
 */
export function d1StartOf(request: Request, bookmark: D1SessionBookmark | null): D1Start {
  if (bookmark) return bookmark;
  const anonymousRead = isSafeMethod(request.method) && !hasSessionCookie(request);
  return anonymousRead ? "first-unconstrained" : "first-primary";
}
