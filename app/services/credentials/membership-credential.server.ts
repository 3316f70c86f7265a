import type { Issuance } from "#db/queries/credentials/issuance.ts";
import { MEMBERSHIP_TITLE_PREFIX } from "#db/queries/achievements/card.ts";
import { OB_CONTEXT, VC_V2_CONTEXT } from "./contexts.server.ts";
import { xsdDateTime } from "./data-integrity.server.ts";
import {
  credentialUrl,
  hashedEmail,
  organizationDid,
  signIssuance,
  statusEntryFor,
  type Issuing,
} from "./issuer.server.ts";
import type { RegisteredKey } from "./keys.server.ts";

/** A membership entry as its credential says it (decision 070). */
export type MembershipFacts = {
  /** The passport entry (an achievements row): the achievement's `urn:uuid:` in every version. */
  entryId: string;
  userId: string;
  email: string;
  organizationId: string;
  organizationName: string;
  /** The organisation's verified domain, named as the issuer's url (decision 055). */
  issuerDomain: string | null;
  role: "admin" | "member";
  /** When the membership was approved: `validFrom`, `awardedDate` and `activityStartDate`. */
  startedAt: Date;
  /** YYYY-MM-DD the membership ended (`activityEndDate`), null while it lasts. */
  endedOn: string | null;
  /** The credential this one replaces (named in the achievement's `related`), if any. */
  replaces: string | null;
};

export const membershipTitle = (organizationName: string) => `${MEMBERSHIP_TITLE_PREFIX}${organizationName}`;
/** The organisation's name as its entry recorded it (it outlives the organisation). */
export const organizationNameOfEntry = (title: string) =>
  title.startsWith(MEMBERSHIP_TITLE_PREFIX) ? title.slice(MEMBERSHIP_TITLE_PREFIX.length) : title;

/**
 * Signs the OpenBadgeCredential of a membership (achievement type `Membership`). The end of a
 * membership is a fact, not an expiry: it is `activityEndDate` of the subject, never `validUntil`,
 * and the dated credential names the one it replaces in `achievement.related`. Reads nothing: the
 * caller read the organisation's newest key and open status list.
 */
export async function signMembershipCredential(
  issuing: Issuing,
  facts: MembershipFacts,
  { latestKey, openList }: { latestKey?: RegisteredKey; openList?: { id: string; nextIndex: number } },
): Promise<Issuance> {
  const { organizationId, organizationName } = facts;
  const entry = statusEntryFor(issuing, openList);
  const id = crypto.randomUUID();
  const did = organizationDid(issuing, organizationId);
  const issuedAt = new Date();
  const started = xsdDateTime(facts.startedAt);
  const title = membershipTitle(organizationName);
  const credential = {
    "@context": [VC_V2_CONTEXT, OB_CONTEXT],
    id: credentialUrl(issuing.origin, id),
    type: ["VerifiableCredential", "OpenBadgeCredential"],
    name: title,
    issuer: {
      id: did,
      type: ["Profile"],
      name: organizationName,
      ...(facts.issuerDomain ? { url: `https://${facts.issuerDomain}` } : {}),
    },
    validFrom: started,
    awardedDate: started,
    credentialSubject: {
      type: ["AchievementSubject"],
      identifier: [await hashedEmail(facts.email)],
      activityStartDate: started,
      ...(facts.endedOn ? { activityEndDate: `${facts.endedOn}T00:00:00Z` } : {}),
      ...(facts.role === "admin" ? { role: "admin" } : {}),
      achievement: {
        id: `urn:uuid:${facts.entryId}`,
        type: ["Achievement"],
        achievementType: "Membership",
        name: title,
        description: facts.endedOn
          ? `Was a member of ${organizationName} from ${started.slice(0, 10)} to ${facts.endedOn}.`
          : `A member of ${organizationName} since ${started.slice(0, 10)}.`,
        criteria: { narrative: `${organizationName} approved this person as a member.` },
        ...(facts.replaces
          ? { related: [{ id: credentialUrl(issuing.origin, facts.replaces), type: ["Related"], version: "1" }] }
          : {}),
        ...(facts.endedOn ? { version: "2" } : {}),
      },
    },
    credentialStatus: entry.credentialStatus,
  };
  return signIssuance(issuing, credential, {
    id,
    achievementId: facts.entryId,
    organizationId,
    userId: facts.userId,
    entry,
    issuedAt,
    latestKey,
  });
}
