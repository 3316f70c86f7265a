// How a password is hashed for accounts.password: better-auth (app/utils/auth.server.ts) hashes
// and checks with it, and the seed hashes its demo accounts' password with it, so it lives in db/,
// below both.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

// scrypt through node:crypto (native in workerd under nodejs_compat): memory-hard, and fast
// enough for the Workers CPU limit, unlike a pure-JavaScript scrypt.
const PARAMS: ScryptOptions = { N: 16384, r: 16, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 64;

function derive(password: string, salt: string) {
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, PARAMS, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** "salt:key", both hex. */
export async function hashPassword(password: string) {
  const salt = randomBytes(16).toString("hex");
  return `${salt}:${(await derive(password, salt)).toString("hex")}`;
}

export async function verifyPassword({ hash, password }: { hash: string; password: string }) {
  const [salt, key] = hash.split(":");
  if (!salt || !key) return false;
  const expected = Buffer.from(key, "hex");
  const actual = await derive(password, salt);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
