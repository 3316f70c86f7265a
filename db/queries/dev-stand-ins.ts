import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../client.ts";
import { devDnsRecords, devWebDocuments } from "../schema.ts";

/**
 * The local stand-ins for DNS and the web (/dev/dns.json, /dev/web.json): outside production,
 * domain checks and outside fetches read these rows and never reach the network.
 */

const MAX_ROWS = 500;

/** A DNS name as stored and looked up: lowercase, without the trailing dot. */
export const dnsName = (name: string) => name.trim().toLowerCase().replace(/\.$/, "");

export function listDevDnsRecords(db: Db, filter: { name?: string; type?: string } = {}) {
  return db
    .select({ name: devDnsRecords.name, type: devDnsRecords.type, data: devDnsRecords.data })
    .from(devDnsRecords)
    .where(
      and(
        filter.name === undefined ? undefined : eq(devDnsRecords.name, dnsName(filter.name)),
        filter.type === undefined ? undefined : eq(devDnsRecords.type, filter.type.toUpperCase()),
      ),
    )
    .orderBy(asc(devDnsRecords.name), asc(devDnsRecords.createdAt))
    .limit(MAX_ROWS);
}

export async function addDevDnsRecord(db: Db, record: { name: string; type: string; data: string }) {
  await db
    .insert(devDnsRecords)
    .values({ name: dnsName(record.name), type: record.type.toUpperCase(), data: record.data });
}

export async function removeDevDnsRecords(db: Db, name: string) {
  await db.delete(devDnsRecords).where(eq(devDnsRecords.name, dnsName(name)));
}

export async function putDevWebDocument(db: Db, document: { url: string; contentType: string; body: string }) {
  await db
    .insert(devWebDocuments)
    .values(document)
    .onConflictDoUpdate({
      target: devWebDocuments.url,
      set: { contentType: document.contentType, body: document.body, createdAt: new Date() },
    });
}

export async function findDevWebDocument(db: Db, url: string) {
  const [document] = await db
    .select({ contentType: devWebDocuments.contentType, body: devWebDocuments.body })
    .from(devWebDocuments)
    .where(eq(devWebDocuments.url, url))
    .limit(1);
  return document ?? null;
}

export function listDevWebDocuments(db: Db) {
  return db
    .select({ url: devWebDocuments.url, contentType: devWebDocuments.contentType, body: devWebDocuments.body })
    .from(devWebDocuments)
    .orderBy(asc(devWebDocuments.url))
    .limit(MAX_ROWS);
}
