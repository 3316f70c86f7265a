import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import type { Db } from "#db/client.ts";
import * as schema from "#db/schema.ts";
import type { AppEnv } from "./env.server.ts";

export const AUTH_BASE_PATH = "/api/auth";
const THIRTY_DAYS_IN_SECONDS = 60 * 60 * 24 * 30;

// One better-auth instance per request: its database and secrets come from that request's bindings.
export function createAuth({ db, env, origin }: { db: Db; env: AppEnv; origin: string }) {
  return betterAuth({
    basePath: AUTH_BASE_PATH,
    baseURL: env.APP_URL ?? origin,
    secret: env.SESSION_SECRET,
    database: drizzleAdapter(db, { provider: "sqlite", schema, usePlural: true }),
    emailAndPassword: { enabled: true, minPasswordLength: 6, maxPasswordLength: 128 },
    session: { expiresIn: THIRTY_DAYS_IN_SECONDS },
    rateLimit: { enabled: env.ENVIRONMENT === "production", storage: "database" },
    advanced: {
      database: { generateId: () => crypto.randomUUID() },
      cookiePrefix: "passport",
      useSecureCookies: (env.APP_URL ?? origin).startsWith("https://"),
    },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;
export type SessionUser = NonNullable<Awaited<ReturnType<Auth["api"]["getSession"]>>>["user"];
