import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "#db/client.ts";
import {
  isIssuanceRace,
  issuanceWrites,
  latestKeyOfOrganizationQuery,
  openStatusListOfOrganizationQuery,
  type Issuance,
} from "#db/queries/credentials/issuance.ts";
import type { MemberKey } from "#db/queries/memberships/keys.ts";
import {
  approvedWithoutOpenEntry,
  dueEntries,
  endEntryUpdate,
  entryExists,
  entryInsert,
  entrySignedUpdate,
  membershipToRecordQuery,
  openEntryQuery,
  organizationsWithOpenEntry,
  setMembershipCredentials,
  supersedeCredentialUpdate,
  type MembershipEntry,
} from "#db/queries/memberships/entries.ts";
import { sql } from "drizzle-orm";
import { credentials } from "#db/schema.ts";
import { issuing, type Issuing } from "./credentials/issuer.server.ts";
import type { RegisteredKey } from "./credentials/keys.server.ts";
import {
  membershipTitle,
  organizationNameOfEntry,
  signMembershipCredential,
} from "./credentials/membership-credential.server.ts";
import { STATUS_LIST_SIZE } from "./credentials/status-list.server.ts";
import { invalidatePassports, type PassportCacheEnv } from "#app/utils/passport-cache.server.ts";
import { adminSignInOf } from "./organizations.server.ts";
import type { ServiceContext } from "./context.server.ts";
import type { Toast } from "#app/utils/toast-message.ts";
import { log } from "#app/utils/log.server.ts";

/** As many tries as `answer` makes when a concurrent issuance takes the status-list entry first. */
const ATTEMPTS = 4;
const day = (date: Date) => date.toISOString().slice(0, 10);

type Stores = { db: Db; env: PassportCacheEnv & Parameters<typeof issuing>[1] };
type SigningState = { latestKey?: RegisteredKey; openList?: { id: string; nextIndex: number } };

/**
 * A membership was approved (by an admin or an invite link): the person's passport gets its
 * 'Member of …' entry from the approval date, with its credential (decision 070). Nothing when
 * the organisation turned membership credentials off, the membership is not approved or an open
 * entry exists. A failed signing leaves the entry for the cron to sign. Never throws: the
 * membership stands whatever happens here.
 */
export async function recordMembership(context: Stores, { userId, organizationId }: MemberKey) {
  const key = { userId, organizationId };
  try {
    await recordOnce(context, key);
  } catch (error) {
    logFailure("membership entry failed", { ...key }, error);
  }
}

async function recordOnce({ db, env }: Stores, key: MemberKey) {
  const signer = issuing(db, env);
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const [[row], [latestKey], [openList]] = await db.batch([
      membershipToRecordQuery(db, key),
      latestKeyOfOrganizationQuery(db, key.organizationId),
      openStatusListOfOrganizationQuery(db, key.organizationId, STATUS_LIST_SIZE),
    ]);
    if (!row || !row.enabled || row.openEntryId) return;
    const startedAt = row.approvedAt ?? new Date();
    const entryId = crypto.randomUUID();
    const role = row.isAdmin ? "admin" : "member";
    const issuance = signer
      ? await signMembershipCredential(
          signer,
          {
            entryId,
            userId: key.userId,
            email: row.email,
            organizationId: key.organizationId,
            organizationName: row.organizationName,
            issuerDomain: row.issuerDomain,
            role,
            startedAt,
            endedOn: null,
            replaces: null,
          },
          { latestKey, openList },
        ).catch((error: unknown) => {
          logFailure("membership credential signing failed", { entryId }, error);
          return null;
        })
      : null;
    const statements: BatchItem<"sqlite">[] = [
      entryInsert(
        db,
        {
          id: entryId,
          ...key,
          title: membershipTitle(row.organizationName),
          date: day(startedAt),
          role,
          signDue: Boolean(signer && !issuance),
        },
        approvedWithoutOpenEntry(key),
      ),
      ...(issuance ? issuanceWrites(db, issuance, entryExists(entryId)) : []),
    ];
    try {
      await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
      await invalidatePassports(env, key.userId);
      return;
    } catch (error) {
      if (!issuance || !isIssuanceRace(error)) throw error;
    }
  }
}

/**
 * A membership ended (left, removed): its open entry is dated `endedAt` and its credential
 * replaced by a dated one naming it; the first is superseded, not revoked. Never throws: a
 * failure leaves the entry for the cron to sign.
 */
export async function endMembership(context: Stores, { userId, organizationId }: MemberKey, endedAt = new Date()) {
  const key = { userId, organizationId };
  try {
    const { db } = context;
    const [[entry], [latestKey], [openList]] = await db.batch([
      openEntryQuery(db, key),
      latestKeyOfOrganizationQuery(db, key.organizationId),
      openStatusListOfOrganizationQuery(db, key.organizationId, STATUS_LIST_SIZE),
    ]);
    if (!entry) return;
    const endedOn = day(endedAt);
    // Dated in the batch that stores the dated credential; if signing fails, dated alone, for
    // the cron to sign.
    const signed = await signEntry(context, { ...entry, endedOn }, { latestKey, openList }, [
      endEntryUpdate(db, entry.id, endedOn, false),
    ]).catch((error: unknown) => {
      logFailure("membership credential signing failed", { entryId: entry.id }, error);
      return undefined;
    });
    if (!signed) await db.batch([endEntryUpdate(db, entry.id, endedOn, Boolean(issuing(db, context.env)))]);
    await invalidatePassports(context.env, key.userId);
  } catch (error) {
    logFailure("ending a membership entry failed", { ...key }, error);
  }
}

/** Archiving drops every membership of the account: each open entry ends that day. */
export async function endMembershipsOf(context: Stores, userId: string) {
  for (const organizationId of await organizationsWithOpenEntry(context.db, userId))
    await endMembership(context, { userId, organizationId });
}

/**
 * Signs the credential of an entry as it stands (open, or ended on `endedOn`), replacing its
 * current one if it has one, and marks it signed, in one batch. Says the signing state to carry
 * to the organisation's next entry, or null when a concurrent issuance took the entry first (the
 * caller reads again).
 */
async function signEntry(
  { db, env }: Stores,
  entry: MembershipEntry,
  state: SigningState,
  first: BatchItem<"sqlite">[] = [],
): Promise<SigningState | null | undefined> {
  const signer = issuing(db, env);
  if (!signer) return undefined;
  const issuance = await sign(signer, entry, state);
  const newId = issuance.credential.id!;
  // Stored only while the entry still has the credential this one replaces (or none).
  const stillCurrent = entry.credentialId
    ? sql`exists (select 1 from ${credentials} where ${credentials.id} = ${entry.credentialId} and ${credentials.supersededBy} = ${newId})`
    : sql`not exists (select 1 from ${credentials} where ${credentials.achievementId} = ${entry.id})`;
  const statements: BatchItem<"sqlite">[] = [
    ...first,
    ...(entry.credentialId
      ? [supersedeCredentialUpdate(db, { oldId: entry.credentialId, newId, entryId: entry.id })]
      : []),
    ...issuanceWrites(db, issuance, stillCurrent),
    entrySignedUpdate(db, entry.id),
  ];
  try {
    await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (error) {
    if (isIssuanceRace(error)) return null;
    throw error;
  }
  const { statusListId, statusIndex } = issuance.credential;
  return {
    latestKey: issuance.newKey
      ? { version: issuance.newKey.version, publicKeyMultibase: issuance.newKey.publicKeyMultibase, retiredAt: null }
      : state.latestKey,
    openList: statusIndex + 1 < STATUS_LIST_SIZE ? { id: statusListId, nextIndex: statusIndex + 1 } : undefined,
  };
}

function sign(signer: Issuing, entry: MembershipEntry, state: SigningState): Promise<Issuance> {
  return signMembershipCredential(
    signer,
    {
      entryId: entry.id,
      userId: entry.userId,
      email: entry.email,
      organizationId: entry.organizationId,
      // A deleted organisation's name is the one its entry recorded.
      organizationName: entry.organizationName ?? organizationNameOfEntry(entry.title),
      issuerDomain: entry.issuerDomain,
      role: entry.role === "admin" ? "admin" : "member",
      startedAt: entry.startedAt ? new Date(entry.startedAt) : new Date(`${entry.date}T00:00:00Z`),
      endedOn: entry.endedOn,
      replaces: entry.credentialId,
    },
    state,
  );
}

/**
 * The cron's share: signs the credentials of entries still due (a deleted organisation's members,
 * a signing that failed), at most `limit` per run, oldest first, so that deleting an organisation
 * of 10,000 members costs bounded work per run. One read per organisation and one batch per entry.
 */
export async function signDueMembershipEntries(context: Stores, limit: number) {
  const { db } = context;
  const entries = await dueEntries(db, limit);
  const states = new Map<string, SigningState>();
  let signed = 0;
  let failed = 0;
  for (const entry of entries) {
    try {
      let state = states.get(entry.organizationId);
      if (!state) {
        const [[latestKey], [openList]] = await db.batch([
          latestKeyOfOrganizationQuery(db, entry.organizationId),
          openStatusListOfOrganizationQuery(db, entry.organizationId, STATUS_LIST_SIZE),
        ]);
        state = { latestKey, openList };
      }
      const next = await signEntry(context, entry, state);
      if (next === null) {
        states.delete(entry.organizationId);
        failed++;
        continue;
      }
      if (next) states.set(entry.organizationId, next);
      await invalidatePassports(context.env, entry.userId);
      signed++;
    } catch (error) {
      states.delete(entry.organizationId);
      failed++;
      logFailure("membership credential signing failed", { entryId: entry.id }, error);
    }
  }
  return { signed, failed, more: entries.length === limit };
}

/** An organisation admin turns membership credentials on or off for their organisation. */
export async function changeMembershipCredentials(
  context: ServiceContext,
  admin: { id: string; organizationId: string | null },
  enabled: boolean,
) {
  const setting = await adminSignInOf(context, admin.id, admin.organizationId);
  if (setting.membershipCredentials !== enabled)
    await setMembershipCredentials(context.db, admin.organizationId!, enabled);
  return {
    title: enabled ? "Membership credentials on" : "Membership credentials off",
    description: enabled
      ? "Members approved from now on get a 'Member of' entry with its credential."
      : "Members approved from now on get no membership entry. Existing entries stay.",
  } satisfies Toast;
}

function logFailure(message: string, fields: Record<string, unknown>, error: unknown) {
  log("error", message, { ...fields, error: error instanceof Error ? error.stack : String(error) });
}
