import { z } from "zod";

// Every variable the app reads, validated once per request from the Worker's bindings.
// Empty strings (as left in .dev.vars) mean "not configured".
const optional = z
  .string()
  .optional()
  .transform((value) => (value ? value : undefined));

const envSchema = z.object({
  ENVIRONMENT: z.enum(["development", "test", "production"]).default("development"),
  APP_URL: z
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  SESSION_SECRET: z.string().min(32, "SESSION_SECRET must be at least 32 characters"),
  // Derives each organisation's credential signing keys (HKDF). Empty: derived from
  // SESSION_SECRET instead; changing it later starts new key versions (decision 020).
  CREDENTIAL_KEY_SECRET: optional.pipe(
    z.string().min(32, "CREDENTIAL_KEY_SECRET must be at least 32 characters").optional(),
  ),
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
});

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
