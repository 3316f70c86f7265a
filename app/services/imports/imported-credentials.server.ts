import { confirmedAddressesOf } from "#db/queries/other-addresses.ts";
import type { ServiceContext } from "#app/services/context.server.ts";
import { issuing } from "#app/services/credentials/issuer.server.ts";
import type { Resolver } from "#app/services/credentials/did-web.server.ts";
import { verifierFor } from "#app/services/credentials/verify.server.ts";
import { AlreadySaved, NotFound, Refusal } from "#app/utils/domain-errors.server.ts";
import { importsPrefix } from "#app/utils/media.server.ts";
import { invalidatePassports } from "#app/utils/passport-cache.server.ts";
import { log } from "#app/utils/log.server.ts";
import type { ImportStatus } from "#db/enums.ts";
import {
  findOwnImport,
  importsToRecheck,
  keepImportStatements,
  ownImportDelete,
  recordRecheckStatement,
} from "#db/queries/imported-credentials.ts";
import { achievementExists } from "#db/queries/achievements/writes.ts";
import { provenImportHolders } from "#db/queries/wallet-exchanges.ts";
import { storageChangeStatements, storageUsed } from "#db/queries/storage.ts";
import { deleteReleased } from "#app/services/storage.server.ts";
import { refusedOverQuota } from "#app/utils/storage-quota.server.ts";
import { STORAGE_FULL_TITLE, STORAGE_QUOTA_BYTES, storageFullMessage } from "#app/utils/storage-quota.ts";
import type { ImportOutcome } from "./import-result.ts";
import type { ImportSource } from "./read-input.server.ts";
import { verifyImport } from "./verify-import.server.ts";
import { previewIdentity } from "./issuer-standing.server.ts";

/**
 * Importing a badge or credential (issue 32, decision 069): 'Check' verifies it and keeps the
 * file as the person's one pending import (R2, overwritten by the next check); 'Add to passport'
 * verifies that file again (the server never trusts an earlier answer), then writes its timeline
 * entry and its row in one batch and keeps the original beside them. Adding twice adds nothing.
 */

export const IMPORT_REFUSED = "Error importing credential";

/** The pending file's key: one per person, so abandoned checks never pile up. */
const pendingKey = (userId: string) => `${importsPrefix(userId)}pending`;
const originalKeyOf = (userId: string, id: string) => `${importsPrefix(userId)}${id}`;

type Person = { id: string; email: string };

function resolverOf(context: ServiceContext): Resolver {
  const signer = issuing(context.db, context.env);
  if (!signer) throw new Error("APP_URL is not set: imports cannot read this app's own issuers");
  return verifierFor(signer, context.env.ENVIRONMENT);
}

/**
 * Verifies `source` for `person`: the addresses it may be issued to are theirs (the sign-in
 * address and the confirmed other ones, decision 068); the wallet DIDs are only `holderDids`,
 * those a DIDAuth made for this very import proved (decision 099).
 */
export async function verifyFor(
  context: ServiceContext,
  person: Person,
  source: ImportSource,
  { now = new Date(), holderDids = [] }: { now?: Date; holderDids?: readonly string[] } = {},
) {
  const addresses = await confirmedAddressesOf(context.db, person.id);
  return verifyImport(source, { resolver: resolverOf(context), recipient: { addresses, holderDids }, now });
}

export type PendingFile = { bytes: Uint8Array; fileName: string; contentType: string };

/** The bytes a source stands for, as the original is kept: a file as uploaded, a paste as text. */
export function originalOf(source: ImportSource): PendingFile {
  if (source.kind === "file") {
    return {
      bytes: source.bytes,
      fileName: source.fileName?.slice(0, 200) || "credential",
      contentType: source.contentType || "application/octet-stream",
    };
  }
  const text = source.text.trim();
  const json = text.startsWith("{");
  return {
    bytes: new TextEncoder().encode(text),
    fileName: json ? "credential.json" : /^https:/i.test(text) ? "credential-address.txt" : "credential.jwt",
    contentType: json ? "application/json" : "text/plain",
  };
}

/**
 * Checks an import and keeps its file as the person's pending one, under a new `nonce` that the
 * page's 'Add to passport' form carries back. Nothing is added to the passport.
 */
export async function checkImport(context: ServiceContext, person: Person, source: ImportSource) {
  const now = new Date();
  const outcome = await verifyFor(context, person, source, { now });
  // Refused only for a wallet DID not yet proved: kept, for 'Prove with my wallet' (decision 099).
  if (outcome.status === "refused" && !outcome.walletDid) return { outcome, nonce: null, issuerIdentity: null };
  const issuerIdentity = outcome.status === "refused" ? null : await previewIdentity(context.db, outcome.issuer, now);
  const nonce = crypto.randomUUID();
  const original = originalOf(source);
  await context.cloudflare.env.MEDIA.put(pendingKey(person.id), original.bytes, {
    httpMetadata: { contentType: original.contentType },
    customMetadata: { nonce, fileName: original.fileName },
  });
  return { outcome, nonce, issuerIdentity };
}

/** The person's pending import checked under `nonce`, or a refusal when another check replaced it. */
export async function readPendingImport(context: ServiceContext, userId: string, nonce: string) {
  const pending = await context.cloudflare.env.MEDIA.get(pendingKey(userId));
  if (!pending || pending.customMetadata?.nonce !== nonce) {
    await pending?.body.cancel();
    throw new Refusal({ title: IMPORT_REFUSED, description: NOT_CURRENT });
  }
  const bytes = new Uint8Array(await pending.arrayBuffer());
  const fileName = pending.customMetadata?.fileName ?? "credential";
  const contentType = pending.httpMetadata?.contentType ?? "application/octet-stream";
  return { bytes, fileName, contentType, source: sourceOf(bytes, fileName, contentType) };
}
export const NOT_CURRENT = "This check is no longer current: choose the file or paste the credential again.";

/** Refuses unless `nonce` is still the person's pending import (read from its metadata, not its bytes). */
export async function refuseUnlessPending(context: ServiceContext, userId: string, nonce: string) {
  const pending = await context.cloudflare.env.MEDIA.head(pendingKey(userId));
  if (pending?.customMetadata?.nonce !== nonce) throw new Refusal({ title: IMPORT_REFUSED, description: NOT_CURRENT });
}

/** Adds the person's pending import (checked under `nonce`) to their passport, verified once more. */
export async function addImport(context: ServiceContext, person: Person, nonce: string) {
  const media = context.cloudflare.env.MEDIA;
  const { bytes, fileName, contentType, source } = await readPendingImport(context, person.id, nonce);
  const now = new Date();
  const holderDids = await provenImportHolders(context.db, person.id, nonce);
  const outcome = await verifyFor(context, person, source, { now, holderDids });
  if (outcome.status === "refused") throw new Refusal({ title: IMPORT_REFUSED, description: outcome.reason });
  const toast = {
    title: "Credential added",
    description: `"${outcome.badge.name}" was added to your passport`,
  };
  // The kept original counts towards the person's storage (decision 074); the pending one does not.
  const remaining = Math.max(0, STORAGE_QUOTA_BYTES - (await storageUsed(context.db, person.id)));
  if (bytes.byteLength > remaining) {
    throw new Refusal({ title: STORAGE_FULL_TITLE, description: storageFullMessage(remaining) });
  }
  const id = crypto.randomUUID();
  const originalKey = originalKeyOf(person.id, id);
  await media.put(originalKey, bytes, { httpMetadata: { contentType }, customMetadata: { fileName } });
  const { statements, achievementId } = keepImportStatements(context.db, {
    userId: person.id,
    importKey: outcome.key,
    format: `${outcome.format} (${outcome.container})`,
    issuerIdentity: outcome.badge.issuerIdentity,
    issuer: outcome.issuer,
    holderDid: outcome.walletDid ?? null,
    status: outcome.status,
    originalKey,
    originalName: fileName,
    originalType: contentType,
    entry: entryOf(outcome),
    now,
  });
  const [written] = await context.db
    .batch([
      ...statements,
      ...storageChangeStatements(context.db, person.id, {
        counted: [{ key: originalKey, bytes: bytes.byteLength }],
        when: achievementExists(achievementId),
      }),
    ])
    .catch(async (error: unknown) => {
      // Nothing points at the original: it goes (another upload may have taken the space left).
      await media.delete(originalKey);
      throw refusedOverQuota(error) ?? error;
    });
  if (written.length === 0) {
    // Imported before (a second submit, or the same badge again): the first one stands.
    await media.delete(originalKey);
    throw new AlreadySaved({
      title: "Already on your passport",
      description: `"${outcome.badge.name}" was imported before`,
    });
  }
  await invalidatePassports(context.env, person.id);
  return toast;
}

/** A kept file as the verifier reads it again: a paste as text, a file as bytes. */
function sourceOf(bytes: Uint8Array, fileName: string, contentType: string): ImportSource {
  return contentType === "application/json" || contentType === "text/plain"
    ? { kind: "text", text: new TextDecoder().decode(bytes) }
    : { kind: "file", bytes, fileName, contentType };
}

/** How many imported credentials the daily run re-checks: the longest unchecked first, the rest the next day. */
export const IMPORT_RECHECKS_PER_RUN = 50;
/** An import checked within this long is not due again yet. */
const RECHECK_AFTER_MS = 20 * 60 * 60 * 1000;

/** What a re-check found, as the row records it. */
function statusAfter(outcome: ImportOutcome): ImportStatus {
  if (outcome.status !== "refused") return outcome.status;
  const revocation = outcome.checks.find((check) => check.name === "Revocation" && !check.passed);
  return revocation && /^(Revoked|Suspended) by the issuer/.test(revocation.detail) ? "revoked" : "unverified";
}

/**
 * The cron's daily re-check of imported credentials (decision 069): a bounded batch, the longest
 * unchecked first, so the rest are taken the next day. Each is verified again from its kept
 * original; a revocation is recorded with its first date and takes the entry off the public
 * passport. One import's failure never stops the rest.
 */
export async function recheckImports(context: ServiceContext, now: Date, limit = IMPORT_RECHECKS_PER_RUN) {
  const due = await importsToRecheck(context.db, new Date(now.getTime() - RECHECK_AFTER_MS), limit);
  let revoked = 0;
  let changed = 0;
  for (const row of due) {
    try {
      const object = await context.cloudflare.env.MEDIA.get(row.originalKey);
      const outcome = object
        ? await verifyFor(
            context,
            { id: row.userId, email: row.email },
            sourceOf(new Uint8Array(await object.arrayBuffer()), row.originalName, row.originalType),
            // A wallet DID counts only as proved when it was imported (decision 099).
            { now, holderDids: row.holderDid ? [row.holderDid] : [] },
          )
        : null;
      const status = outcome ? statusAfter(outcome) : "unverified";
      const issuer = outcome && outcome.status !== "refused" ? outcome.issuer : null;
      await recordRecheckStatement(context.db, row.id, status, now, issuer);
      // A domain linked or unlinked since, or a row kept before issue 43's columns, shows anew.
      const issuerChanged =
        issuer && (issuer.linkedDomain !== row.issuerDomain || issuer.nameKey !== row.issuerNameKey);
      if (status !== row.status || issuerChanged) {
        changed += 1;
        if (status === "revoked") revoked += 1;
        await invalidatePassports(context.env, row.userId);
      }
    } catch (error) {
      log("error", "imported credential re-check failed", { importId: row.id, error: String(error) });
    }
  }
  return { checked: due.length, changed, revoked };
}

/** The timeline entry of a verified import, stored as a self achievement is: 'name - issuer'. */
function entryOf(outcome: Extract<ImportOutcome, { badge: unknown }>) {
  const { badge } = outcome;
  return {
    title: `${badge.name} - ${badge.issuerName}`,
    description: badge.description,
    date: badge.date,
    type: badge.type,
    imageUrl: badge.image,
  };
}

/** Deletes the person's imported entry and its kept original; another person's entry is not found. */
export async function deleteImport(context: ServiceContext, userId: string, achievementId: string) {
  const row = await findOwnImport(context.db, userId, achievementId);
  if (!row) throw new NotFound("Imported credential not found");
  // The entry and the count of its original go together; then the file (retried by the cron if
  // R2 fails: the released row names it meanwhile).
  await context.db.batch([
    ownImportDelete(context.db, userId, achievementId),
    ...storageChangeStatements(context.db, userId, { released: [row.originalKey] }),
  ]);
  await Promise.all([deleteReleased(context, [row.originalKey]), invalidatePassports(context.env, userId)]);
  return { title: "Credential deleted", description: "It is no longer on your passport." };
}

/** The original file of the person's import, as they uploaded or pasted it; null when not theirs. */
export async function originalFile(context: ServiceContext, userId: string, achievementId: string) {
  const row = await findOwnImport(context.db, userId, achievementId);
  if (!row) return null;
  const object = await context.cloudflare.env.MEDIA.get(row.originalKey);
  return object ? { object, fileName: row.originalName, contentType: row.originalType } : null;
}
