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
  const env = readEnv(context.cloudflare.env as unknown as Record<string, unknown>);
  const db = createDb(context.cloudflare.env.DB);
  const auth = createAuth({ db, env, origin: new URL(request.url).origin });
  let session: Promise<SessionData | null> | undefined;
  const getSession = () => (session ??= auth.api.getSession({ headers: request.headers }));
  return {
    cloudflare: context.cloudflare,
    env,
    db,
    auth,
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
