import { and, asc, eq, lt, notExists, sql } from "drizzle-orm";
import { insertWhen, type Db } from "../client.ts";
import { achievements, importedCredentials, users, type ImportStatus } from "../schema.ts";
import type { AchievementType } from "../enums.ts";

// Imported badges and credentials (issue 32, decision 069): a timeline entry of the person's own
// and the row that says what was verified, written together; read by the passport pages, the
// data export and the daily re-check.

/** Who stands behind the issuer's name, as the row records it at each check (issue 43). */
export type ImportIssuerColumns = {
  linkedDomain: string | null;
  organizationId: string | null;
  nameKey: string;
};
const issuerColumnsOf = (issuer: ImportIssuerColumns) => ({
  issuerDomain: issuer.linkedDomain,
  issuerOrganizationId: issuer.organizationId,
  issuerNameKey: issuer.nameKey,
});

export type NewImport = {
  userId: string;
  importKey: string;
  format: string;
  issuerIdentity: string;
  issuer: ImportIssuerColumns;
  /** The wallet DID it was issued to, proved for this import (decision 099); null for an address. */
  holderDid: string | null;
  status: ImportStatus;
  originalKey: string;
  originalName: string;
  originalType: string;
  entry: { title: string; description: string | null; date: string; type: AchievementType; imageUrl: string | null };
  now: Date;
};

/**
 * The two statements of one batch that keep an import: its timeline entry (accepted, visible, of
 * the person's own) and its row, both only when the person has not imported it already, so a
 * second submit adds nothing. Returns the statements and the ids they write.
 */
export function keepImportStatements(db: Db, input: NewImport) {
  const achievementId = crypto.randomUUID();
  const id = crypto.randomUUID();
  const notYet = notExists(
    db
      .select({ one: sql`1` })
      .from(importedCredentials)
      .where(and(eq(importedCredentials.userId, input.userId), eq(importedCredentials.importKey, input.importKey))),
  );
  const entry = insertWhen(
    db,
    achievements,
    {
      id: achievementId,
      userId: input.userId,
      createdBy: input.userId,
      organizationId: null,
      ...input.entry,
      status: "accepted",
      isVisible: true,
    },
    notYet,
  ).returning({ id: achievements.id });
  const row = insertWhen(
    db,
    importedCredentials,
    {
      id,
      userId: input.userId,
      achievementId,
      importKey: input.importKey,
      format: input.format,
      issuerIdentity: input.issuerIdentity,
      ...issuerColumnsOf(input.issuer),
      holderDid: input.holderDid,
      status: input.status,
      revokedAt: null,
      checkedAt: input.now,
      originalKey: input.originalKey,
      originalName: input.originalName,
      originalType: input.originalType,
      createdAt: input.now,
    },
    // Only when the entry above was written in this batch.
    sql`exists (select 1 from ${achievements} where ${achievements.id} = ${achievementId})`,
  ).onConflictDoNothing();
  return { statements: [entry, row] as const, achievementId };
}

/** The person's import behind a timeline entry, or null (another person's entry is nobody's here). */
export async function findOwnImport(db: Db, userId: string, achievementId: string) {
  const [row] = await db
    .select({
      id: importedCredentials.id,
      achievementId: importedCredentials.achievementId,
      originalKey: importedCredentials.originalKey,
      originalName: importedCredentials.originalName,
      originalType: importedCredentials.originalType,
      title: achievements.title,
    })
    .from(importedCredentials)
    .innerJoin(achievements, eq(achievements.id, importedCredentials.achievementId))
    .where(and(eq(importedCredentials.userId, userId), eq(importedCredentials.achievementId, achievementId)))
    .limit(1);
  return row ?? null;
}

/** Deletes the person's imported entry (its row goes with it, ON DELETE CASCADE). */
/** Deletes the person's imported entry (its row goes with it), as a statement that returns what it deleted. */
export function ownImportDelete(db: Db, userId: string, achievementId: string) {
  return db
    .delete(achievements)
    .where(
      and(
        eq(achievements.id, achievementId),
        eq(achievements.userId, userId),
        sql`exists (select 1 from ${importedCredentials} where ${importedCredentials.achievementId} = ${achievements.id})`,
      ),
    )
    .returning({ id: achievements.id });
}

/** The imports checked longest ago (before `before`), at most `limit`: the daily re-check's batch. */
export function importsToRecheck(db: Db, before: Date, limit: number) {
  return db
    .select({
      id: importedCredentials.id,
      userId: importedCredentials.userId,
      email: users.email,
      achievementId: importedCredentials.achievementId,
      status: importedCredentials.status,
      issuerDomain: importedCredentials.issuerDomain,
      issuerNameKey: importedCredentials.issuerNameKey,
      holderDid: importedCredentials.holderDid,
      originalKey: importedCredentials.originalKey,
      originalName: importedCredentials.originalName,
      originalType: importedCredentials.originalType,
    })
    .from(importedCredentials)
    .innerJoin(users, eq(users.id, importedCredentials.userId))
    .where(lt(importedCredentials.checkedAt, before))
    .orderBy(asc(importedCredentials.checkedAt), asc(importedCredentials.id))
    .limit(limit);
}

/**
 * Records a re-check's result; a revocation keeps its first date. Who stands behind the issuer's
 * name is what this check found (a domain no longer linked is gone); kept as it was when the
 * check did not get that far.
 */
export function recordRecheckStatement(
  db: Db,
  id: string,
  status: ImportStatus,
  now: Date,
  issuer: ImportIssuerColumns | null,
) {
  return db
    .update(importedCredentials)
    .set({
      status,
      ...(issuer ? issuerColumnsOf(issuer) : {}),
      checkedAt: now,
      revokedAt: status === "revoked" ? sql`coalesce(${importedCredentials.revokedAt}, ${now.getTime()})` : null,
    })
    .where(eq(importedCredentials.id, id));
}

/** The person's imports for the data export. */
export function ownImports(db: Db, userId: string) {
  return (
    db
      .select({
        achievementId: importedCredentials.achievementId,
        format: importedCredentials.format,
        issuerIdentity: importedCredentials.issuerIdentity,
        status: importedCredentials.status,
        revokedAt: importedCredentials.revokedAt,
        checkedAt: importedCredentials.checkedAt,
        originalKey: importedCredentials.originalKey,
        originalName: importedCredentials.originalName,
        originalType: importedCredentials.originalType,
        createdAt: importedCredentials.createdAt,
      })
      .from(importedCredentials)
      .where(eq(importedCredentials.userId, userId))
      .orderBy(asc(importedCredentials.createdAt))
      // A hard ceiling (far above any real account), so an export always ends.
      .limit(10_000)
  );
}
