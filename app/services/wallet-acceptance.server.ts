import type { Db } from "#db/client.ts";
import { acceptanceOfCredential, openAcceptExchange } from "#db/queries/achievement-acceptances.ts";
import { downloadHolderOf, forgetOwnHolder, ownHoldersPart, storeHolderCopy } from "#db/queries/credential-holders.ts";
import { registerKeyVersion } from "#db/queries/credentials/issuance.ts";
import { NotFound } from "#app/utils/domain-errors.server.ts";
import type { ServiceContext } from "./context.server.ts";
import type { JsonObject } from "./credentials/data-integrity.server.ts";
import type { Issuing } from "./credentials/issuer.server.ts";
import { reissueStored } from "./credentials/reissue.server.ts";
import { signedWithRetiredKey } from "./credentials/keys.server.ts";
import { newExchange } from "./wallet-exchange.server.ts";

/**
 * 'Accept with my wallet' (issue 31, decision 066): a pending achievement accepted by the
 * holder's signature. The same Learner Credential Wallet exchange as 'Add to wallet' (decision
 * 064, wallet-exchange.server.ts, which also answers it), its challenge bound to the achievement.
 * Here: opening it, the proof of acceptance anyone may read, and the holder DIDs the person's
 * credentials went to (their downloads, their Settings list).
 */

/** Opens an 'accept' exchange for one of the person's own pending achievements; anything else: NotFound. */
export async function startAcceptExchange(
  context: ServiceContext,
  userId: string,
  achievementId: string,
  now = new Date(),
) {
  const id = await openAcceptExchange(context.db, { ...newExchange(now), userId, achievementId });
  if (!id) throw new NotFound("Achievement not found");
  return id;
}

/** The proof of acceptance of a credential, as anyone may read it; null when it was accepted without one. */
export async function acceptanceProof(context: ServiceContext, credentialId: string) {
  const row = await acceptanceOfCredential(context.db, credentialId);
  return (
    row && { holder: row.holder, signedAt: row.signedAt, presentation: JSON.parse(row.presentation) as JsonObject }
  );
}

/**
 * The credential as its download serves it: bound to its newest remembered holder DID, else as
 * stored (the e-mail-hash subject). `servable` is the stored credential as it may be served. The
 * holder's copy is the one signed when its exchange was spent (issue 43): a download signs
 * nothing, unless the row predates stored copies or its copy's key version was retired: then it
 * is signed once more and kept, as `servableCredential` does for the stored credential.
 */
export async function boundToHolder(
  issuing: Issuing,
  credential: { id: string; organizationId: string; retiredKeyVersions: number[] },
  servable: JsonObject,
) {
  const bound = await downloadHolderOf(issuing.db, credential.id);
  if (!bound) return servable;
  const kept = bound.credentialJson ? (JSON.parse(bound.credentialJson) as JsonObject) : null;
  if (kept && !signedWithRetiredKey(kept, credential.retiredKeyVersions)) return kept;
  const { credential: reissued, register } = await reissueStored(
    issuing,
    { ...bound, organizationId: credential.organizationId, json: JSON.stringify(servable) },
    bound.holder,
  );
  if (register) await registerKeyVersion(issuing.db, register);
  await storeHolderCopy(issuing.db, bound.id, bound.credentialJson, JSON.stringify(reissued));
  return reissued;
}

/** How many credential–DID pairs Settings lists, newest first (and says how many more there are). */
export const HOLDER_KEYS_SHOWN = 50;

/** The person's holder DIDs, each with its credentials, newest first; capped. A part of the page's batch. */
export function ownHolderKeysPart(db: Db, userId: string, cap: number) {
  const part = ownHoldersPart(db, userId, cap);
  return {
    statements: part.statements,
    read: (results: readonly unknown[]) => {
      const { rows, total } = part.read(results);
      type Credential = {
        credentialId: string;
        title: string | null;
        organizationName: string | null;
        issuedAt: string;
      };
      const byHolder = new Map<string, { did: string; lastIssuedAt: string; credentials: Credential[] }>();
      for (const { holder, issuedAt, ...credential } of rows) {
        const entry = byHolder.get(holder) ?? { did: holder, lastIssuedAt: issuedAt.toISOString(), credentials: [] };
        entry.credentials.push({ ...credential, issuedAt: issuedAt.toISOString() });
        byHolder.set(holder, entry);
      }
      return { keys: [...byHolder.values()], shown: rows.length, total };
    },
  };
}

/** Forgets one of the person's own holder DIDs: their downloads go back to the e-mail-hash subject. */
export async function forgetHolderKey(context: ServiceContext, userId: string, did: string) {
  if ((await forgetOwnHolder(context.db, userId, did)) === 0) throw new NotFound("Wallet key not found");
}
