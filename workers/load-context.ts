import type { AppLoadContext } from "@remix-run/cloudflare";
import { createDb, type Db } from "#db/client.ts";
import { createAuth, type Auth, type SessionData, type SessionUser } from "#app/utils/auth.server.ts";
import { readEnv, type AppEnv } from "#app/utils/env.server.ts";

export interface CloudflareContext {
  env: Env;
  ctx: Pick<ExecutionContext, "waitUntil" | "passThroughOnException">;
  cf?: CfProperties;
}

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    cloudflare: CloudflareContext;
    env: AppEnv;
    db: Db;
    auth: Auth;
    /** The signed-in session, looked up at most once per request and only when asked. */
    getSession(): Promise<SessionData | null>;
    getUser(): Promise<SessionUser | null>;
    /** The CSP nonce for this response's inline scripts (absent under the Vite dev server). */
    nonce?: string;
    requestId: string;
  }
}

/**
 * What is the same for every request an isolate serves, built on its first request: the
 * validated variables and the database client (drizzle reads the whole schema when created).
 */
const isolatePartsCache = new WeakMap<Env, { env: AppEnv; db: Db }>();
function isolateParts(bindings: Env) {
  let parts = isolatePartsCache.get(bindings);
  if (!parts) {
    parts = { env: readEnv(bindings as unknown as Record<string, unknown>), db: createDb(bindings.DB) };
    isolatePartsCache.set(bindings, parts);
  }
  return parts;
}

// Built once per request, for the Worker and for the Vite dev server alike.
export function getLoadContext({
  request,
  context,
  nonce,
  requestId = crypto.randomUUID(),
}: {
  request: Request;
  context: { cloudflare: CloudflareContext };
  nonce?: string;
  requestId?: string;
}): AppLoadContext {
  const { env, db } = isolateParts(context.cloudflare.env);
  // The auth library builds its whole API when created: only requests that use it pay for that
  // (a visitor's public passport or landing page never does).
  let auth: Auth | undefined;
  const getAuth = () => (auth ??= createAuth({ db, env, origin: new URL(request.url).origin }));
  let session: Promise<SessionData | null> | undefined;
  const getSession = () => (session ??= getAuth().api.getSession({ headers: request.headers }));
  return {
    cloudflare: context.cloudflare,
    env,
    db,
    get auth() {
      return getAuth();
    },
    getSession,
    getUser: () => getSession().then((data) => data?.user ?? null),
    nonce,
    requestId,
  };
}

/** The Cloudflare part of the load context, from a Hono handler's context. */
export function cloudflareContext(c: { env: Env; executionCtx: ExecutionContext; req: { raw: Request } }) {
  return {
    cloudflare: {
      env: c.env,
      ctx: c.executionCtx,
      cf: c.req.raw.cf,
    },
  };
}
