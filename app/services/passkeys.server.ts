import { NotFound } from "#app/utils/domain-errors.server.ts";
import { securityEvent } from "#app/utils/log.server.ts";
import { passkeyLabel } from "#app/utils/passkeys.server.ts";
import { deletePasskeyOf, markPasskeyUsed, passkeysPart, setPasskeyName } from "#db/queries/passkeys.ts";
import type { ServiceContext } from "./context.server.ts";
import { mailSecurityEvent } from "./accounts/account.server.ts";

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

/** Who a passkey change is told to: the account's owner, by mail. */
type Owner = { userId: string; email: string; name: string; appUrl: string };

/** The library added a passkey to the person's account: logged, and its owner told. */
export function passkeyAdded(context: ServiceContext, owner: Owner) {
  securityEvent("factor.changed", { reason: "passkey added", userId: owner.userId, requestId: context.requestId });
  void mailSecurityEvent(context, owner, "passkey added");
}

export async function renamePasskey(context: ServiceContext, input: { userId: string; id: string; name: string }) {
  if (!(await setPasskeyName(context.db, input))) throw new NotFound();
}

/** Removes one of the person's passkeys (their own only: another's is not found), and tells them. */
export async function removePasskey(context: ServiceContext, { id, ...owner }: Owner & { id: string }) {
  const { userId } = owner;
  if (!(await deletePasskeyOf(context.db, { userId, id }))) throw new NotFound();
  void mailSecurityEvent(context, owner, "passkey removed");
  securityEvent("factor.changed", { reason: "passkey removed", userId, passkeyId: id, requestId: context.requestId });
}
