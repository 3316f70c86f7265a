import { and, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { insertWhen, type Db } from "../client.ts";
import { batchPart } from "./batch-parts.ts";
import { achievements, credentialHolders, credentials, organizationKeys, organizations } from "../schema.ts";

// The wallet DIDs a person's credentials were issued to (decision 066): written when a wallet
// exchange is answered, outliving the exchange row, until the person forgets the DID.

/** Records (or refreshes) that `credentialId` was issued to `holder`, for the credential's own person. */
export function rememberHolderStatement(
  db: Db,
  row: { userId: string; credentialId: string; holder: string; issuedAt: Date },
) {
  return db
    .insert(credentialHolders)
    .values({ id: crypto.randomUUID(), ...row })
    .onConflictDoUpdate({
      target: [credentialHolders.credentialId, credentialHolders.holder],
      set: { issuedAt: row.issuedAt },
    });
}

/** The same for a credential written in the same batch: only while `when` holds. */
export function rememberHolderWhen(
  db: Db,
  row: { userId: string; credentialId: string; holder: string; issuedAt: Date; credentialJson: string | null },
  when: SQL,
) {
  return insertWhen(db, credentialHolders, { id: crypto.randomUUID(), ...row }, when);
}

/**
 * The person's credentials issued to wallet DIDs, newest first, at most `cap` rows (with the
 * total), for Settings to group by DID: a part of the page's one batch.
 */
export function ownHoldersPart(db: Db, userId: string, cap: number) {
  return batchPart(
    [
      db
        .select({
          holder: credentialHolders.holder,
          credentialId: credentialHolders.credentialId,
          issuedAt: credentialHolders.issuedAt,
          title: achievements.title,
          organizationName: organizations.name,
        })
        .from(credentialHolders)
        .innerJoin(credentials, eq(credentials.id, credentialHolders.credentialId))
        .leftJoin(achievements, eq(achievements.id, credentials.achievementId))
        .leftJoin(organizations, eq(organizations.id, credentials.organizationId))
        .where(eq(credentialHolders.userId, userId))
        .orderBy(desc(credentialHolders.issuedAt), credentialHolders.id)
        .limit(cap),
      db.select({ value: count() }).from(credentialHolders).where(eq(credentialHolders.userId, userId)),
    ],
    ([rows, [total]]) => ({ rows, total: total?.value ?? 0 }),
  );
}

/** Forgets one of the person's own holder DIDs; another person's DID deletes nothing. How many rows went. */
export async function forgetOwnHolder(db: Db, userId: string, holder: string) {
  const gone = await db
    .delete(credentialHolders)
    .where(and(eq(credentialHolders.userId, userId), eq(credentialHolders.holder, holder)))
    .returning({ id: credentialHolders.id });
  return gone.length;
}

/**
 * The DID a credential's download is bound to (its newest remembered holder), with the copy
 * stored for it and the organisation's newest signing key (to sign a copy when none is stored, or
 * it was signed with a retired key): one statement.
 */
export async function downloadHolderOf(db: Db, credentialId: string) {
  const [row] = await db
    .select({
      id: credentialHolders.id,
      holder: credentialHolders.holder,
      credentialJson: credentialHolders.credentialJson,
      keyVersion: organizationKeys.version,
      keyMultibase: organizationKeys.publicKeyMultibase,
      keyRetiredAt: organizationKeys.retiredAt,
    })
    .from(credentialHolders)
    .innerJoin(credentials, eq(credentials.id, credentialHolders.credentialId))
    .leftJoin(
      organizationKeys,
      and(
        eq(organizationKeys.organizationId, credentials.organizationId),
        eq(
          organizationKeys.version,
          sql`(select max(${organizationKeys.version}) from ${organizationKeys} where ${organizationKeys.organizationId} = ${credentials.organizationId})`,
        ),
      ),
    )
    .where(eq(credentialHolders.credentialId, credentialId))
    .orderBy(desc(credentialHolders.issuedAt))
    .limit(1);
  return row ?? null;
}

/**
 * Keeps the copy a download signed (issue 43) in place of `previous` (none, for a row from before
 * stored copies; or one signed with a retired key): only if the row still holds `previous`.
 */
export async function storeHolderCopy(db: Db, id: string, previous: string | null, credentialJson: string) {
  await db
    .update(credentialHolders)
    .set({ credentialJson })
    .where(and(eq(credentialHolders.id, id), sql`${credentialHolders.credentialJson} is ${previous}`));
}
