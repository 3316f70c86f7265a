import { NotFound } from "#app/utils/domain-errors.server.ts";
import type { ServiceContext } from "./context.server.ts";
import {
  findExportProfile,
  listExportAcceptances,
  listExportEndorsements,
  listExportFeedback,
  listExportMemberships,
  listExportNotifications,
  listExportPasskeys,
  listExportRoles,
  listExportWalletKeys,
  listGivenAchievements,
  listReceivedAchievements,
  pagesOfExportCredentials,
} from "#db/queries/data-export.ts";
import { listExportOtherAddresses } from "#db/queries/other-addresses.ts";
import { ownImports } from "#db/queries/imported-credentials.ts";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { mediaKeyFromUrl } from "#app/utils/media.server.ts";
import { servableCredential } from "./credentials/reissue.server.ts";
import { buildResume } from "./resume.server.ts";
import { zipStream, type ZipEntry } from "#app/utils/zip-stream.server.ts";

// "Download my data": one ZIP with data.json (every row of the person), resume.json, their media
// files under media/ and their signed credentials under credentials/.

/** What `data.json` and `resume.json` are built from; also serves the résumé download alone. */
export async function readPersonData(context: ServiceContext, userId: string) {
  const { db } = context;
  // One line a kind of row, each read page by page (db/queries/data-export.ts), all at once.
  const data = await allOf({
    profile: findExportProfile(db, userId),
    received: listReceivedAchievements(db, userId),
    given: listGivenAchievements(db, userId),
    memberships: listExportMemberships(db, userId),
    roles: listExportRoles(db, userId),
    notifications: listExportNotifications(db, userId),
    feedback: listExportFeedback(db, userId),
    passkeys: listExportPasskeys(db, userId),
    walletKeys: listExportWalletKeys(db, userId),
    acceptances: listExportAcceptances(db, userId),
    otherAddresses: listExportOtherAddresses(db, userId),
    imports: ownImports(db, userId),
    endorsementsReceived: listExportEndorsements(db, userId, "received"),
    endorsementsGiven: listExportEndorsements(db, userId, "given"),
  });
  const { profile } = data;
  if (!profile) throw new NotFound("Not found");
  return { ...data, profile };
}
type PersonData = Awaited<ReturnType<typeof readPersonData>>;

/** `Promise.all` over an object: each key's promise, awaited under the same key. */
async function allOf<T extends Record<string, Promise<unknown>>>(promises: T) {
  const settled = await Promise.all(Object.entries(promises).map(async ([key, value]) => [key, await value]));
  return Object.fromEntries(settled) as { [K in keyof T]: Awaited<T[K]> };
}

export function resumeOf(
  data: Pick<PersonData, "profile" | "received" | "memberships" | "endorsementsReceived">,
  origin: string,
) {
  return buildResume({
    profile: data.profile,
    achievements: data.received,
    memberships: data.memberships,
    endorsements: data.endorsementsReceived,
    origin,
    userId: data.profile.id,
  });
}

/** The résumé on its own: only the rows it is made of. */
export async function readResume(context: ServiceContext, userId: string, origin: string) {
  const [profile, received, memberships, endorsementsReceived] = await Promise.all([
    findExportProfile(context.db, userId),
    listReceivedAchievements(context.db, userId),
    listExportMemberships(context.db, userId),
    listExportEndorsements(context.db, userId, "received"),
  ]);
  if (!profile) throw new NotFound("Not found");
  return resumeOf({ profile, received, memberships, endorsementsReceived }, origin);
}

/** The R2 keys of the person's own files, each once: profile media and their achievements' media. */
function mediaKeysOf(data: PersonData) {
  const urls = [
    data.profile.avatarUrl,
    data.profile.introVideoUrl,
    data.profile.introVideoThumbnailUrl,
    ...data.received.flatMap((achievement) => [achievement.imageUrl, achievement.videoUrl]),
  ];
  return [...new Set(urls.map(mediaKeyFromUrl).filter((key): key is string => key !== null))];
}

/** Where a media URL's file sits in the archive (null: an outside link, not ours to copy). */
const archivePath = (url: string | null) => {
  const key = mediaKeyFromUrl(url);
  return key ? `media/${key}` : null;
};

/**
 * The person's signed Open Badges credentials, as issued (decision 020), one file each; one whose
 * key version was retired is signed again first, as its download would be (decision 054).
 */
async function* credentialEntries(context: ServiceContext, userId: string): AsyncGenerator<ZipEntry> {
  const signer = { db: context.db, secret: context.env.CREDENTIAL_KEY_SECRET };
  for await (const page of pagesOfExportCredentials(context.db, userId)) {
    for (const { json, ...credential } of page) {
      if (json) {
        const text = credential.retiredKeyVersions.length
          ? JSON.stringify(await servableCredential(signer, { ...credential, json }))
          : json;
        yield { name: `credentials/${credential.id}.json`, text, lastModified: credential.issuedAt };
      }
    }
  }
}

function exportedEndorsement({ credential, ...row }: PersonData["endorsementsReceived"][number]) {
  return { ...row, credential: JSON.parse(credential) as unknown };
}

export function exportFileName(now = new Date()) {
  return `career-passport-${now.toISOString().slice(0, 10)}.zip`;
}

/** Where an imported credential's original file sits in the archive (decision 069). */
const importPath = (row: { achievementId: string; originalName: string }) =>
  `imports/${row.achievementId}/${row.originalName.replace(/[^\w.-]+/g, "_") || "credential"}`;

/** The whole export as a ZIP byte stream; media is read from R2 one file at a time. */
export function exportArchive(context: ServiceContext, data: PersonData, origin: string) {
  const now = new Date();
  const { profile } = data;
  const document = {
    exportedAt: now.toISOString(),
    application: PRODUCT_NAME,
    profile: {
      ...profile,
      avatar: archivePath(profile.avatarUrl),
      introVideo: archivePath(profile.introVideoUrl),
      introVideoThumbnail: archivePath(profile.introVideoThumbnailUrl),
      publicPassportUrl: new URL(`/passport/${profile.id}`, origin).href,
    },
    achievementsReceived: data.received.map((achievement) => ({
      ...achievement,
      image: archivePath(achievement.imageUrl),
      video: archivePath(achievement.videoUrl),
    })),
    achievementsGiven: data.given,
    memberships: data.memberships,
    // Every membership the passport records (decision 070), ended ones too, with its credential.
    membershipHistory: data.received
      .filter((entry) => entry.membershipOrganizationId)
      .map((entry) => ({
        organizationId: entry.membershipOrganizationId,
        organizationName: entry.organizationName,
        role: entry.membershipRole,
        from: entry.date,
        to: entry.membershipEndedOn,
        shownOnPassport: entry.isVisible,
        credentialId: entry.credentialId,
      })),
    organisationRoles: data.roles,
    notifications: data.notifications,
    feedback: data.feedback,
    passkeys: data.passkeys,
    walletKeys: data.walletKeys,
    // The presentations as the wallet signed them (decision 066): each verifies on its own.
    walletAcceptances: data.acceptances.map(({ presentation, ...acceptance }) => ({
      ...acceptance,
      presentation: JSON.parse(presentation) as unknown,
    })),
    // Pending and confirmed (decision 068); the link's token is never stored, so never exported.
    otherEmailAddresses: data.otherAddresses,
    // Decision 072: received (any answer) and given, each with its signed EndorsementCredential.
    endorsementsReceived: data.endorsementsReceived.map(exportedEndorsement),
    endorsementsGiven: data.endorsementsGiven.map(exportedEndorsement),
    importedCredentials: data.imports.map(({ originalKey: _key, ...row }) => ({ ...row, original: importPath(row) })),
  };
  const bucket = context.cloudflare.env.MEDIA;
  async function* entries(): AsyncGenerator<ZipEntry> {
    yield { name: "data.json", text: JSON.stringify(document, null, 2), lastModified: now };
    yield { name: "resume.json", text: JSON.stringify(resumeOf(data, origin), null, 2), lastModified: now };
    for (const key of mediaKeysOf(data)) {
      yield {
        name: `media/${key}`,
        lastModified: now,
        // A file gone from R2 (a half-finished delete) is left out rather than failing the export.
        stream: async () => (await bucket.get(key))?.body ?? null,
      };
    }
    for (const row of data.imports) {
      yield {
        name: importPath(row),
        lastModified: now,
        stream: async () => (await bucket.get(row.originalKey))?.body ?? null,
      };
    }
    yield* credentialEntries(context, profile.id);
  }
  return zipStream(entries());
}
