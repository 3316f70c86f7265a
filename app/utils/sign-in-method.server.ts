// How a session was signed in, and the strong factor it has used (decision 089), as the auth
// library's session hook records them when it creates a session.

export type SignInMethod = "password" | "two-factor" | "passkey" | "email-link";
/** A strong factor a session has used: a code (authenticator app or recovery code) or a passkey. */
export type StrongFactor = "code" | "passkey";

type SessionRecord = { signInMethod: SignInMethod | null; strongFactor: StrongFactor | null };

/** The library's endpoints that start a session, and what each one proves. */
const STARTED_BY: Record<string, SessionRecord> = {
  "/sign-in/email": { signInMethod: "password", strongFactor: null },
  // The sign-in's second step, after the password (decision 060).
  "/two-factor/verify-totp": { signInMethod: "two-factor", strongFactor: "code" },
  "/two-factor/verify-backup-code": { signInMethod: "two-factor", strongFactor: "code" },
  // A passkey that verified the person (decision 061).
  "/passkey/verify-authentication": { signInMethod: "passkey", strongFactor: "passkey" },
  "/verify-email": { signInMethod: "email-link", strongFactor: null },
};

/** The endpoint context the library passes its hooks: the path, and the request's session if any. */
type HookContext = {
  path?: string;
  context?: { session?: { session?: object } | null };
} | null;

const recordOf = (row: object): SessionRecord => {
  const { signInMethod = null, strongFactor = null } = row as Partial<SessionRecord>;
  return { signInMethod, strongFactor };
};

/**
 * What a new session records. A session the library starts in place of another (turning
 * two-factor on or off rotates it; a password change starts a fresh one after ending the rest)
 * carries on the one it replaces: rotating proves nothing new. Anything unknown used no strong
 * factor.
 */
export function sessionRecordOf(session: object, hook: HookContext | undefined): SessionRecord {
  // Rotation: the library copies the replaced session's row into the new one.
  if ("signInMethod" in session || "strongFactor" in session) return recordOf(session);
  const started = hook?.path ? STARTED_BY[hook.path] : undefined;
  if (started && hook?.path !== "/two-factor/verify-totp") return started;
  const replaced = hook?.context?.session?.session;
  // verify-totp with a session is turning two-factor on (the library rotates with the old row,
  // above); without one, the sign-in's second step.
  if (replaced) return recordOf(replaced);
  return started ?? { signInMethod: null, strongFactor: null };
}
