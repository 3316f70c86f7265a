import { and, asc, count, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { otherAddresses, users } from "../schema.ts";
import { batchPart, runPart } from "./batch-parts.ts";

// A person's other e-mail addresses (issue 32, decision 068): added and removed in Settings,
// confirmed by a mailed link, read by the credential importer to match a badge to its owner.

/** How many other addresses (pending or confirmed) one person may hold (decision 068). */
export const MAX_OTHER_ADDRESSES = 10;

/** An address as it is stored and compared: trimmed and lower-cased, as the account's e-mail is. */
export const normalizedAddress = (address: string) => address.trim().toLowerCase();

/**
 * The person's sign-in e-mail and their confirmed other addresses, lower-cased, each once: the
 * addresses an imported credential may be issued to. A part of a page's batch (two statements).
 */
export function confirmedAddressesPart(db: Db, userId: string) {
  return batchPart(
    [
      db
        .select({ address: sql<string>`lower(${users.email})` })
        .from(users)
        .where(eq(users.id, userId)),
      db
        .select({ address: otherAddresses.address })
        .from(otherAddresses)
        .where(and(eq(otherAddresses.userId, userId), sql`${otherAddresses.confirmedAt} is not null`))
        .orderBy(asc(otherAddresses.confirmedAt), asc(otherAddresses.id))
        .limit(MAX_OTHER_ADDRESSES),
    ],
    ([signIn, others]) => [...new Set([...signIn, ...others].map((row) => normalizedAddress(row.address)))],
  );
}

/** The same on its own (one round trip); no addresses for an unknown user. */
export function confirmedAddressesOf(db: Db, userId: string): Promise<string[]> {
  return runPart(db, confirmedAddressesPart(db, userId));
}

/** The person's other addresses as Settings lists them, oldest first (all of them: at most the cap). */
export function otherAddressesPart(db: Db, userId: string) {
  return batchPart(
    [
      db
        .select({
          id: otherAddresses.id,
          address: otherAddresses.address,
          sentAt: otherAddresses.sentAt,
          expiresAt: otherAddresses.expiresAt,
          confirmedAt: otherAddresses.confirmedAt,
        })
        .from(otherAddresses)
        .where(eq(otherAddresses.userId, userId))
        .orderBy(asc(otherAddresses.createdAt), asc(otherAddresses.id))
        .limit(MAX_OTHER_ADDRESSES),
    ],
    ([rows]) => rows,
  );
}

/**
 * What adding `address` meets, in one round trip: the person's sign-in e-mail, the row they
 * already have for the address (if any), and how many addresses they hold.
 */
export function additionPart(db: Db, userId: string, address: string) {
  return batchPart(
    [
      db
        .select({ email: sql<string>`lower(${users.email})` })
        .from(users)
        .where(eq(users.id, userId)),
      db
        .select({ id: otherAddresses.id, sentAt: otherAddresses.sentAt, confirmedAt: otherAddresses.confirmedAt })
        .from(otherAddresses)
        .where(and(eq(otherAddresses.userId, userId), eq(otherAddresses.address, address))),
      db.select({ n: count() }).from(otherAddresses).where(eq(otherAddresses.userId, userId)),
    ],
    ([[user], [existing], [held]]) => ({
      signInAddress: user?.email ?? null,
      existing: existing ?? null,
      held: held?.n ?? 0,
    }),
  );
}

type Link = { tokenHash: string; sentAt: Date; expiresAt: Date };

/**
 * Adds a pending address with its link, unless the person already holds the cap (counted in the
 * same statement, so two adds at once cannot pass it) or already has this address. The new row's
 * id, or null when nothing was added.
 */
export async function insertOtherAddress(db: Db, input: { userId: string; address: string } & Link) {
  const id = crypto.randomUUID();
  const rows = await db.all<{ id: string }>(sql`
    insert into other_addresses (id, user_id, address, token_hash, sent_at, expires_at, confirmed_at, created_at)
    select ${id}, ${input.userId}, ${input.address}, ${input.tokenHash}, ${input.sentAt.getTime()},
      ${input.expiresAt.getTime()}, null, ${input.sentAt.getTime()}
    where (select count(*) from other_addresses where user_id = ${input.userId}) < ${MAX_OTHER_ADDRESSES}
    on conflict do nothing
    returning id`);
  return rows[0]?.id ?? null;
}

/**
 * A new link for one of the person's pending addresses: the old token stops working. The address,
 * or null when they have no such pending address (another's, confirmed, or removed).
 */
export async function replaceLink(db: Db, input: { userId: string; id: string } & Link) {
  const [row] = await db
    .update(otherAddresses)
    .set({ tokenHash: input.tokenHash, sentAt: input.sentAt, expiresAt: input.expiresAt })
    .where(
      and(eq(otherAddresses.id, input.id), eq(otherAddresses.userId, input.userId), isNull(otherAddresses.confirmedAt)),
    )
    .returning({ address: otherAddresses.address });
  return row?.address ?? null;
}

/** One of the person's addresses by id (null: not theirs, or removed). */
export async function findOtherAddressOf(db: Db, { userId, id }: { userId: string; id: string }) {
  const [row] = await db
    .select({ id: otherAddresses.id, address: otherAddresses.address, sentAt: otherAddresses.sentAt })
    .from(otherAddresses)
    .where(and(eq(otherAddresses.id, id), eq(otherAddresses.userId, userId), isNull(otherAddresses.confirmedAt)));
  return row ?? null;
}

/**
 * Whether the row's address is another person's: confirmed by them, or their verified sign-in
 * e-mail (stored lower-cased by the auth library, so its unique index finds it). Written with the
 * table's own name: inside the subqueries the outer row's columns must stay qualified, whatever
 * statement (a select or an update) is around it.
 */
const takenElsewhere = sql`exists (select 1 from other_addresses as o
    where o.address = other_addresses.address and o.confirmed_at is not null and o.user_id != other_addresses.user_id)
  or exists (select 1 from users as u
    where u.email = other_addresses.address and u.email_verified = 1 and u.id != other_addresses.user_id)`;

/**
 * The address a link's token names, with whether another person holds it already (confirmed, or
 * as their verified sign-in e-mail): one statement.
 */
export async function findByTokenHash(db: Db, tokenHash: string) {
  const [row] = await db
    .select({
      id: otherAddresses.id,
      userId: otherAddresses.userId,
      address: otherAddresses.address,
      expiresAt: otherAddresses.expiresAt,
      confirmedAt: otherAddresses.confirmedAt,
      takenElsewhere: sql<number>`(${takenElsewhere})`.mapWith(Boolean),
    })
    .from(otherAddresses)
    .where(eq(otherAddresses.tokenHash, tokenHash));
  return row ?? null;
}

/**
 * Confirms the pending address the token names, for its owner only, while the link is valid and
 * nobody else holds the address. True when this call confirmed it (a second call finds it done).
 */
export async function confirmOtherAddress(
  db: Db,
  { userId, tokenHash, now }: { userId: string; tokenHash: string; now: Date },
) {
  try {
    const rows = await db
      .update(otherAddresses)
      .set({ confirmedAt: now })
      .where(
        and(
          eq(otherAddresses.tokenHash, tokenHash),
          eq(otherAddresses.userId, userId),
          isNull(otherAddresses.confirmedAt),
          gt(otherAddresses.expiresAt, now),
          sql`not (${takenElsewhere})`,
        ),
      )
      .returning({ id: otherAddresses.id });
    return rows.length > 0;
  } catch (error) {
    // Another person confirmed the same address at the same moment: the partial unique index.
    if (String(error).includes("UNIQUE constraint failed")) return false;
    throw error;
  }
}

/** Removes one of the person's addresses; the address, or null when they have no such address. */
export async function deleteOtherAddressOf(db: Db, { userId, id }: { userId: string; id: string }) {
  const [row] = await db
    .delete(otherAddresses)
    .where(and(eq(otherAddresses.id, id), eq(otherAddresses.userId, userId)))
    .returning({ address: otherAddresses.address });
  return row?.address ?? null;
}

/** Every other address of the person, for "Download my data". */
export function listExportOtherAddresses(db: Db, userId: string) {
  return db
    .select({
      address: otherAddresses.address,
      confirmedAt: otherAddresses.confirmedAt,
      linkSentAt: otherAddresses.sentAt,
      linkExpiresAt: otherAddresses.expiresAt,
      addedAt: otherAddresses.createdAt,
    })
    .from(otherAddresses)
    .where(eq(otherAddresses.userId, userId))
    .orderBy(asc(otherAddresses.createdAt), asc(otherAddresses.id))
    .limit(MAX_OTHER_ADDRESSES);
}
