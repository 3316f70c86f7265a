import { z } from "zod";

// Every variable the app reads, validated once per request from the Worker's bindings.
// Empty strings (as left in .dev.vars) mean "not configured".
const optional = z
  .string()
  .optional()
  .transform((value) => (value ? value : undefined));

/** The secret .dev.vars.example ships; a deployment that still uses it must not start. */
export const EXAMPLE_SESSION_SECRET = "local-development-secret-change-me-0123456789";

// Fails closed: only an explicit "development" or "test" turns on the local stand-ins (dev
// mailbox, simulated checkout) and the diagnostics; unset, misspelt or anything else is production.
const environment = z
  .string()
  .optional()
  .transform((value) => (value === "development" || value === "test" ? value : ("production" as const)));

/** Whether raw bindings (before `readEnv`, as the Worker's middleware sees them) are production's. */
export function isProduction(bindings: { ENVIRONMENT?: unknown }) {
  // What `environment` reads, without a parse on every request of the test entry's middleware.
  return bindings.ENVIRONMENT !== "development" && bindings.ENVIRONMENT !== "test";
}

/**
 * TWO_FACTOR_SECRETS: `version:secret` pairs, comma-separated, the current one first, as
 * better-auth reads its own BETTER_AUTH_SECRETS (decision 098). Older versions still decrypt until
 * the daily re-wrap has moved every authenticator to the current one.
 */
const twoFactorSecrets = z.string().transform((value, ctx) => {
  const secrets = value.split(",").map((pair) => {
    const colon = pair.indexOf(":");
    return { version: Number(pair.slice(0, colon).trim()), value: pair.slice(colon + 1).trim() };
  });
  const versions = new Set(secrets.map((secret) => secret.version));
  const wellFormed = secrets.every(
    ({ version, value }) => Number.isInteger(version) && version > 0 && value.length >= 32,
  );
  if (!wellFormed || versions.size !== secrets.length) {
    ctx.addIssue({
      code: "custom",
      message: "must be version:secret pairs (distinct positive versions, secrets of at least 32 characters)",
    });
    return z.NEVER;
  }
  return secrets;
});
export type TwoFactorSecrets = z.infer<typeof twoFactorSecrets>;

const envSchema = z
  .object({
    ENVIRONMENT: environment,
    APP_URL: z
      .url()
      .optional()
      .or(z.literal("").transform(() => undefined)),
    SESSION_SECRET: z.string().min(32, "SESSION_SECRET must be at least 32 characters"),
    // Derives each organisation's credential signing keys (HKDF); changing it later starts new
    // key versions (decision 020). Required in production; elsewhere empty means SESSION_SECRET
    // (below), so that a fresh clone signs without configuration.
    CREDENTIAL_KEY_SECRET: optional.pipe(
      z.string().min(32, "CREDENTIAL_KEY_SECRET must be at least 32 characters").optional(),
    ),
    // Encrypts authenticator secrets (decision 098). Required in production, never SESSION_SECRET's
    // value; elsewhere empty means version 1 = SESSION_SECRET, what a fresh clone always used.
    TWO_FACTOR_SECRETS: optional.pipe(twoFactorSecrets.optional()),
    // Where issuer domains are looked up (DNS over HTTPS, JSON form). Outside production the
    // stand-in at /dev/dns.json answers instead and nothing reaches the network.
    DNS_RESOLVER_URL: optional.pipe(z.url().default("https://cloudflare-dns.com/dns-query")),
    RESEND_API_KEY: optional,
    MAIL_FROM: z.string().default("Career Passport <no-reply@localhost>"),
    STRIPE_SECRET_KEY: optional,
    STRIPE_WEBHOOK_SECRET: optional,
    // Where the Stripe SDK sends API calls; only tests set it (a local fake of the Stripe API).
    STRIPE_API_BASE: optional.pipe(z.url().optional()),
    FREE_ACHIEVEMENTS_PER_MEMBER: optional
      .transform((value) => (value === undefined ? undefined : Number(value)))
      .pipe(z.number().int().positive().optional()),
    IMAGE_RESIZING: optional.transform((value) => value === "1" || value === "true"),
    // Global cache purge (decision 034): with both set, a passport change is purged from every
    // data centre; without them only the local copy goes and the edge TTL bounds the rest. The
    // token needs Zone > Cache Purge on this zone only (docs/security.md).
    CLOUDFLARE_ZONE_ID: optional.pipe(
      z
        .string()
        .regex(/^[0-9a-f]{32}$/, "CLOUDFLARE_ZONE_ID must be the zone's 32-character hex id")
        .optional(),
    ),
    CLOUDFLARE_API_TOKEN: optional,
    // Where purge and export requests go; only tests and local runs set it (a stand-in of the API).
    CLOUDFLARE_API_BASE: optional.pipe(z.url().optional()),
    // The nightly D1 export into the backup bucket (decision 096): the three together or none.
    CLOUDFLARE_ACCOUNT_ID: optional.pipe(
      z
        .string()
        .regex(/^[0-9a-f]{32}$/, "CLOUDFLARE_ACCOUNT_ID must be the account's 32-character hex id")
        .optional(),
    ),
    D1_DATABASE_ID: optional.pipe(z.uuid("D1_DATABASE_ID must be wrangler.toml's database_id").optional()),
    D1_EXPORT_API_TOKEN: optional,
  })
  .superRefine((env, ctx) => {
    if (env.ENVIRONMENT !== "production") return;
    // Production refuses to start rather than sign cookies with a published secret, or build
    // e-mail links and the Origin check from whatever Host a request claims.
    if (env.SESSION_SECRET === EXAMPLE_SESSION_SECRET)
      ctx.addIssue({
        code: "custom",
        path: ["SESSION_SECRET"],
        message: "is the example value; set a secret of your own",
      });
    if (!env.APP_URL) ctx.addIssue({ code: "custom", path: ["APP_URL"], message: "is required in production" });
    // Credential keys are never derived from SESSION_SECRET there: a cookie secret that leaked
    // (or was rotated) must not take every organisation's signing keys with it.
    if (!env.CREDENTIAL_KEY_SECRET)
      ctx.addIssue({ code: "custom", path: ["CREDENTIAL_KEY_SECRET"], message: "is required in production" });
    // Nor are authenticator secrets encrypted with it: a leaked cookie secret must not open them.
    if (!env.TWO_FACTOR_SECRETS)
      ctx.addIssue({ code: "custom", path: ["TWO_FACTOR_SECRETS"], message: "is required in production" });
    else if (env.TWO_FACTOR_SECRETS.some((secret) => secret.value === env.SESSION_SECRET))
      ctx.addIssue({ code: "custom", path: ["TWO_FACTOR_SECRETS"], message: "must not be SESSION_SECRET's value" });
  })
  .superRefine((env, ctx) => {
    // Half a configuration would silently purge nothing: say so at start instead.
    if (Boolean(env.CLOUDFLARE_ZONE_ID) !== Boolean(env.CLOUDFLARE_API_TOKEN))
      ctx.addIssue({
        code: "custom",
        path: [env.CLOUDFLARE_ZONE_ID ? "CLOUDFLARE_API_TOKEN" : "CLOUDFLARE_ZONE_ID"],
        message: "CLOUDFLARE_ZONE_ID and CLOUDFLARE_API_TOKEN are set together or not at all",
      });
    const exportParts = [env.CLOUDFLARE_ACCOUNT_ID, env.D1_DATABASE_ID, env.D1_EXPORT_API_TOKEN];
    if (exportParts.some(Boolean) && !exportParts.every(Boolean))
      ctx.addIssue({
        code: "custom",
        path: ["D1_EXPORT_API_TOKEN"],
        message: "CLOUDFLARE_ACCOUNT_ID, D1_DATABASE_ID and D1_EXPORT_API_TOKEN are set together or not at all",
      });
  })
  // Outside production (the only place it can be unset, see above) keys derive from SESSION_SECRET,
  // as they always did locally: no reader of the env chooses a fallback of its own.
  .transform((env) => ({
    ...env,
    CREDENTIAL_KEY_SECRET: env.CREDENTIAL_KEY_SECRET ?? env.SESSION_SECRET,
    TWO_FACTOR_SECRETS: env.TWO_FACTOR_SECRETS ?? [{ version: 1, value: env.SESSION_SECRET }],
  }));

export type AppEnv = z.infer<typeof envSchema>;

export function readEnv(bindings: Record<string, unknown>): AppEnv {
  const parsed = envSchema.safeParse(bindings);
  if (!parsed.success) {
    throw new Error(`Invalid environment: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

/** What the browser may see of the environment. Nothing secret belongs here. */
export function publicEnv(env: AppEnv) {
  return { ENVIRONMENT: env.ENVIRONMENT };
}
