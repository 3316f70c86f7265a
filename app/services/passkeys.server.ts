import { NotFound } from "#app/utils/domain-errors.server.ts";
import { securityEvent } from "#app/utils/log.server.ts";
import { passkeyLabel } from "#app/utils/passkeys.server.ts";
import { deletePasskeyOf, markPasskeyUsed, passkeysPart, setPasskeyName } from "#db/queries/passkeys.ts";
import type { ServiceContext } from "./context.server.ts";

// A person's passkeys, as Settings lists, names and removes them, and as sign-in dates them
// (docs/decisions/061). The auth library adds them and checks them at sign-in.

/** The person's passkeys as Settings shows them: a part of the page's batch. */
export function passkeysListPart(context: Pick<ServiceContext, "db">, userId: string) {
  const part = passkeysPart(context.db, userId);
  return {
    statements: part.statements,
    read: (results: readonly unknown[]) =>
      part.read(results).map((passkey) => ({
        id: passkey.id,
        label: passkeyLabel(passkey),
        name: passkey.name,
        synced: passkey.deviceType === "multiDevice",
        createdAt: passkey.createdAt.getTime(),
        lastUsedAt: passkey.lastUsedAt?.getTime() ?? null,
      })),
  };
}

/** A passkey just signed someone in: its "last used" moves on. */
export async function recordPasskeySignIn(context: ServiceContext, credentialId: string) {
  await markPasskeyUsed(context.db, { credentialId, at: new Date() });
}

/** The library added a passkey to the person's account: logged like every change of a way to sign in. */
export function passkeyAdded(context: ServiceContext, userId: string) {
  securityEvent("factor.changed", { reason: "passkey added", userId, requestId: context.requestId });
}

export async function renamePasskey(context: ServiceContext, input: { userId: string; id: string; name: string }) {
  if (!(await setPasskeyName(context.db, input))) throw new NotFound();
}

export async function removePasskey(context: ServiceContext, { userId, id }: { userId: string; id: string }) {
  if (!(await deletePasskeyOf(context.db, { userId, id }))) throw new NotFound();
  securityEvent("factor.changed", { reason: "passkey removed", userId, passkeyId: id, requestId: context.requestId });
}
