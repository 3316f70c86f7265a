import type { Db } from "#db/client.ts";
import type { AnswerableAchievement, Issuance } from "#db/queries/credentials/issuance.ts";
import type { AchievementType } from "#db/schema.ts";
import type { AppEnv } from "#app/utils/env.server.ts";
import { credentialValidUntil } from "#app/utils/expiry.ts";
import { OB_CONTEXT, VC_V2_CONTEXT } from "./contexts.server.ts";
import { sign, xsdDateTime, type JsonObject } from "./data-integrity.server.ts";
import { didOf, personDidOf, signingKeyFor, type RegisteredKey } from "./keys.server.ts";

/** Where credentials, DID documents and status lists live: the app's public origin. */
export type Issuing = { db: Db; origin: string; secret: string };

export function issuing(db: Db, env: AppEnv): Issuing | null {
  if (!env.APP_URL) return null;
  return { db, origin: new URL(env.APP_URL).origin, secret: env.CREDENTIAL_KEY_SECRET };
}

export const hostOf = (origin: string) => new URL(origin).host;
export const organizationDid = (issuing: Pick<Issuing, "origin">, organizationId: string) =>
  didOf(hostOf(issuing.origin), organizationId);
export const credentialUrl = (origin: string, id: string) => `${origin}/credentials/${id}`;
export const statusListPath = (id: string) => `/credentials/status/${id}`;
export const statusListUrl = (origin: string, id: string) => `${origin}${statusListPath(id)}`;
export const didDocumentPath = (organizationId: string) => `/orgs/${organizationId}/did.json`;
export const personDid = (issuing: Pick<Issuing, "origin">, userId: string) =>
  personDidOf(hostOf(issuing.origin), userId);
export const personDidDocumentPath = (userId: string) => `/people/${userId}/did.json`;

const ACHIEVEMENT_TYPES: Record<AchievementType, string> = {
  award: "Award",
  training: "CertificateOfCompletion",
  milestone: "ext:Milestone",
};

function hex(bytes: ArrayBuffer | Uint8Array) {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The recipient as OB 3.0 identifies them: a salted SHA-256 of the address, never the address. */
export async function hashedEmail(email: string) {
  const salt = hex(crypto.getRandomValues(new Uint8Array(16)));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(email.trim().toLowerCase() + salt));
  return {
    type: "IdentityObject",
    hashed: true,
    identityHash: `sha256$${hex(digest)}`,
    identityType: "emailAddress",
    salt,
  };
}

/**
 * Signs the OpenBadgeCredential of an organisation achievement being accepted (about 10 ms of
 * CPU), so that nothing signs when it is shown, and says what storing it takes. It reads
 * nothing: the caller read the achievement, the organisation's newest key (`latestKey`) and its
 * newest status list with room (`openList`) in one round trip, and stores the result in the
 * batch that records the acceptance (`issuanceWrites`). With no list open, the credential takes
 * entry 0 of a new one. `includeMedia` is the recipient's consent to carry the achievement's
 * picture or video.
 */
export async function signCredential(
  issuing: Issuing,
  achievement: AnswerableAchievement,
  { latestKey, openList }: { latestKey?: RegisteredKey; openList?: { id: string; nextIndex: number } },
  options: { includeMedia: boolean },
): Promise<Issuance> {
  const { organizationId, organizationName } = achievement;
  if (!organizationId || !organizationName) throw new Error("only an organisation's achievement has a credential");
  const entry = statusEntryFor(issuing, openList);
  const id = crypto.randomUUID();
  const did = organizationDid(issuing, organizationId);
  const issuedAt = new Date();
  const absolute = (path: string) => new URL(path, issuing.origin).href;
  const media = options.includeMedia ? { image: achievement.imageUrl, video: achievement.videoUrl } : {};
  const credential = {
    "@context": [VC_V2_CONTEXT, OB_CONTEXT],
    id: credentialUrl(issuing.origin, id),
    type: ["VerifiableCredential", "OpenBadgeCredential"],
    name: achievement.title,
    issuer: {
      id: did,
      type: ["Profile"],
      name: organizationName,
      // Whoever checks the domain's DNS record or its did-configuration.json (DIF Well Known DID
      // Configuration) can confirm that its owner stands behind this DID (decision 055).
      ...(achievement.issuerDomain ? { url: `https://${achievement.issuerDomain}` } : {}),
    },
    validFrom: xsdDateTime(issuedAt),
    // An expiry the admin set (decision 071): verifiers call it expired from that day on.
    ...(achievement.validUntil ? { validUntil: credentialValidUntil(achievement.validUntil) } : {}),
    awardedDate: `${achievement.date}T00:00:00Z`,
    credentialSubject: {
      type: ["AchievementSubject"],
      identifier: [await hashedEmail(achievement.email)],
      achievement: {
        id: `urn:uuid:${achievement.id}`,
        type: ["Achievement"],
        achievementType: ACHIEVEMENT_TYPES[achievement.type],
        name: achievement.title,
        description: achievement.description || achievement.title,
        criteria: {
          narrative: `${organizationName} recognised this ${achievement.type} of one of its members.`,
        },
        ...(media.image ? { image: { id: absolute(media.image), type: "Image", caption: achievement.title } } : {}),
        // A renewal names the credential it renews, as a dated membership names its first (decision 070).
        ...(achievement.renewsCredentialId
          ? { related: [{ id: credentialUrl(issuing.origin, achievement.renewsCredentialId), type: ["Related"] }] }
          : {}),
      },
    },
    ...(media.image || media.video
      ? {
          evidence: [media.image, media.video]
            .filter((url): url is string => Boolean(url))
            .map((url) => ({ id: absolute(url), type: ["Evidence"], name: achievement.title })),
        }
      : {}),
    credentialStatus: entry.credentialStatus,
  };
  return signIssuance(issuing, credential, {
    id,
    achievementId: achievement.id,
    organizationId,
    userId: achievement.userId,
    entry,
    issuedAt,
    latestKey,
  });
}

/**
 * The status-list entry a new credential takes: the next of the organisation's open list, or
 * entry 0 of a new one (`newList`), as the credential's `credentialStatus` names it.
 */
export function statusEntryFor(issuing: Pick<Issuing, "origin">, openList?: { id: string; nextIndex: number }) {
  const statusListId = openList?.id ?? crypto.randomUUID();
  const statusIndex = openList?.nextIndex ?? 0;
  const listUrl = statusListUrl(issuing.origin, statusListId);
  return {
    statusListId,
    statusIndex,
    newList: !openList,
    credentialStatus: {
      id: `${listUrl}#${statusIndex}`,
      type: "BitstringStatusListEntry",
      statusPurpose: "revocation",
      statusListIndex: String(statusIndex),
      statusListCredential: listUrl,
    },
  };
}

/** Signs a credential with the organisation's current key and says what storing it takes. */
export async function signIssuance(
  issuing: Issuing,
  credential: JsonObject,
  {
    id,
    achievementId,
    organizationId,
    userId,
    entry,
    issuedAt,
    latestKey,
  }: {
    id: string;
    achievementId: string;
    organizationId: string;
    userId: string;
    entry: ReturnType<typeof statusEntryFor>;
    issuedAt: Date;
    latestKey?: RegisteredKey;
  },
): Promise<Issuance> {
  const did = organizationDid(issuing, organizationId);
  const { key, register } = await signingKeyFor(issuing.secret, organizationId, did, latestKey);
  const signed = await sign(credential, key, issuedAt);
  return {
    credential: {
      id,
      achievementId,
      organizationId,
      userId,
      statusListId: entry.statusListId,
      statusIndex: entry.statusIndex,
      json: JSON.stringify(signed),
      issuedAt,
    },
    newList: entry.newList,
    newKey: register,
  };
}
