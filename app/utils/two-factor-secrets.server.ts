import type { BetterAuthPlugin } from "better-auth";
import { generateRandomString, symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import type { Db } from "#db/client.ts";
import { replaceRecoveryCodes, rewriteTwoFactors, staleTwoFactors } from "#db/queries/two-factor.ts";
import type { AppEnv } from "./env.server.ts";
import { errorSummary, log } from "./log.server.ts";
import { recoveryCodeFrom } from "./recovery-code.ts";
import { tokenHashOf } from "./token-hash.server.ts";

// Two-factor's own secrets (issue 43, decision 098). The authenticator's TOTP secret is encrypted
// under TWO_FACTOR_SECRETS, by version; the recovery codes are kept as hashes, which no secret
// opens. Authenticators written before, under SESSION_SECRET, still read until the daily re-wrap.

/** How many recovery codes a person holds at a time; each works once. */
export const RECOVERY_CODE_COUNT = 10;

/**
 * Ten recovery codes: 24 characters of a-z0-9 each (124 bits, ASVS 2.6.2's 112 at least), shown
 * in groups of four. `recoveryCodeFrom` reads one however it is typed.
 */
export const generateRecoveryCodes = () =>
  Array.from({ length: RECOVERY_CODE_COUNT }, () => generateRandomString(24, "a-z", "0-9").match(/.{4}/g)!.join("-"));

/** better-auth's key for what it encrypts (its `secretConfig`): here the TOTP secret alone. */
export type TwoFactorKey = { keys: Map<number, string>; currentVersion: number; legacySecret: string };

export const twoFactorKeyOf = (env: Pick<AppEnv, "TWO_FACTOR_SECRETS" | "SESSION_SECRET">): TwoFactorKey => ({
  keys: new Map(env.TWO_FACTOR_SECRETS.map(({ version, value }) => [version, value])),
  currentVersion: env.TWO_FACTOR_SECRETS[0]!.version,
  // What decrypts an authenticator written before decision 098 (no version in it).
  legacySecret: env.SESSION_SECRET,
});

/**
 * Hands better-auth the two-factor key as its `secretConfig`, which the twoFactor plugin encrypts
 * with (as `$ba$<version>$…`). Cookies are signed with `secret`, which stays SESSION_SECRET.
 */
export const twoFactorSecrets = (key: TwoFactorKey) =>
  ({ id: "two-factor-secrets", init: () => ({ context: { secretConfig: key } }) }) satisfies BetterAuthPlugin;

const RECOVERY_CODE_HASH = /^[0-9a-f]{64}$/;
const hashed = (codes: string[]) =>
  Promise.all(codes.map((code) => (RECOVERY_CODE_HASH.test(code) ? code : tokenHashOf(code))));

/**
 * How the twoFactor plugin stores recovery codes (`storeBackupCodes`): as the SHA-256 of each, like
 * every one-time token here. The library compares what it is given with what it reads, so the
 * app gives it `recoveryCodeHashOf(typed)`; a list written before (encrypted codes) reads hashed.
 */
export const recoveryCodeStore = (key: TwoFactorKey) => ({
  encrypt: async (json: string) => JSON.stringify(await hashed(JSON.parse(json) as string[])),
  decrypt: async (stored: string) => JSON.stringify(await hashed(await storedRecoveryCodes(key, stored))),
});

async function storedRecoveryCodes(key: TwoFactorKey, stored: string): Promise<string[]> {
  if (stored.startsWith("[")) return JSON.parse(stored) as string[];
  return JSON.parse(await symmetricDecrypt({ key, data: stored })) as string[];
}

/** What the library is given for a recovery code a person typed. */
export const recoveryCodeHashOf = (typed: string) => tokenHashOf(recoveryCodeFrom(typed));

/** New recovery codes for a person, in place of any before: the codes, to be shown this once. */
export async function replaceWithNewRecoveryCodes(db: Db, userId: string) {
  const codes = generateRecoveryCodes();
  await replaceRecoveryCodes(db, userId, JSON.stringify(await hashed(codes)));
  return codes;
}

/** Authenticators re-written per run of the frequent cron: 10,000 of them within about 8 hours. */
export const REWRAPS_PER_RUN = 200;

/**
 * Authenticators not under the current version (written before, or under an older one), or whose
 * codes are not yet hashed: their secret encrypted again under the current version, their codes
 * hashed. One whose secret no configured version opens is logged and left as it is.
 */
export async function rewrapTwoFactorSecrets(db: Db, key: TwoFactorKey, limit = REWRAPS_PER_RUN) {
  const stale = await staleTwoFactors(db, `$ba$${key.currentVersion}$`, limit);
  const rewritten = await Promise.allSettled(
    stale.map(async (row) => ({
      ...row,
      newSecret: await symmetricEncrypt({ key, data: await symmetricDecrypt({ key, data: row.secret }) }),
      newBackupCodes: await recoveryCodeStore(key).decrypt(row.backupCodes),
    })),
  );
  const done = rewritten.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  for (const result of rewritten)
    if (result.status === "rejected")
      log("error", "two-factor secret not re-wrapped", { error: errorSummary(result.reason) });
  await rewriteTwoFactors(db, done);
  return { rewrapped: done.length, failed: rewritten.length - done.length };
}
