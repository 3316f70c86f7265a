import type { AchievementType } from "#db/schema.ts";

// The person's passport as a résumé in the JSON Resume format (https://jsonresume.org/schema,
// version 1.0.0), which CV builders and themes import. Only what the public passport shows goes
// in: accepted, visible achievements whose credential was not revoked. Milestones become awards
// (docs/decisions/026).

export type ResumeInput = {
  profile: { fullName: string; email: string; bio: string | null; avatarUrl: string | null; isPublic: boolean };
  achievements: {
    id: string;
    title: string;
    description: string | null;
    date: string;
    type: AchievementType;
    status: string;
    isVisible: boolean;
    organizationName: string | null;
    /** When the issuer revoked the achievement's credential (null: not revoked, or none). */
    credentialRevokedAt: Date | null;
    /** Set for a 'Member of …' entry (decision 070): a `work` entry, not an award. */
    membershipOrganizationId?: string | null;
    membershipEndedOn?: string | null;
    /** Its expiry day, and the renewal that folded it (decision 071). */
    validUntil?: string | null;
    renewedBy?: string | null;
  }[];
  memberships: { organizationId: string; organizationName: string; status: string; approvedAt: Date | null }[];
  /** The endorsements received (decision 072): the shown ones of shown entries become `references`. */
  endorsements?: {
    achievementId: string;
    achievementTitle: string;
    endorserName: string;
    comment: string;
    status: string;
  }[];
  /** The app's origin, for the passport URL and the picture. */
  origin: string;
  userId: string;
};

const isoDate = (date: Date) => date.toISOString().slice(0, 10);
/** JSON Resume leaves out empty fields rather than writing nulls (its schema refuses null). */
const present = <T extends Record<string, unknown>>(value: T) =>
  Object.fromEntries(
    Object.entries(value).filter(([, field]) => field !== null && field !== undefined && field !== ""),
  );

export function buildResume({ profile, achievements, memberships, endorsements = [], origin, userId }: ResumeInput) {
  const passportUrl = new URL(`/passport/${userId}`, origin).href;
  const shown = achievements.filter(
    (achievement) =>
      achievement.status === "accepted" &&
      achievement.isVisible &&
      !achievement.credentialRevokedAt &&
      // An entry its renewal folded is listed once, as the renewal (decision 071).
      !achievement.renewedBy,
  );
  const url = profile.isPublic ? passportUrl : undefined;
  return {
    $schema: "https://raw.githubusercontent.com/jsonresume/resume-schema/v1.0.0/schema.json",
    basics: present({
      name: profile.fullName,
      email: profile.email,
      image: profile.avatarUrl ? new URL(profile.avatarUrl, origin).href : undefined,
      summary: profile.bio ?? undefined,
      // A private passport's link leads nowhere for a reader: it is left out.
      url,
    }),
    work: workOf(achievements, shown, memberships),
    awards: shown
      .filter((achievement) => achievement.type !== "training" && !achievement.membershipOrganizationId)
      .map((achievement) =>
        present({
          title: achievement.title,
          date: achievement.date,
          awarder: achievement.organizationName ?? undefined,
          summary: achievement.description ?? undefined,
          // Not a JSON Resume field (its items allow others): the expiry day (decision 071).
          validUntil: achievement.validUntil,
        }),
      ),
    certificates: shown
      .filter((achievement) => achievement.type === "training")
      .map((achievement) =>
        present({
          name: achievement.title,
          date: achievement.date,
          issuer: achievement.organizationName ?? undefined,
          // Until signed credentials exist (issue 17), the passport is where a reader checks it.
          url,
          validUntil: achievement.validUntil,
        }),
      ),
    references: referencesOf(shown, endorsements),
    meta: { canonical: url, version: "v1.0.0", lastModified: new Date().toISOString().slice(0, 19) },
  };
}

/**
 * What others said (decision 072): each endorsement the person shows, on an entry the résumé
 * shows, as a JSON Resume reference: the endorser's name and words, and what they endorsed.
 */
function referencesOf(shown: ResumeInput["achievements"], endorsements: NonNullable<ResumeInput["endorsements"]>) {
  const titles = new Map(shown.map((entry) => [entry.id, entry.title]));
  return endorsements
    .filter((endorsement) => endorsement.status === "shown" && titles.has(endorsement.achievementId))
    .map((endorsement) => ({
      name: endorsement.endorserName,
      reference: `${endorsement.comment} (endorsing "${titles.get(endorsement.achievementId)}")`,
    }));
}

/**
 * Where the person worked, current first: each shown membership entry (its dates; a hidden one
 * stays out, as on the passport), and each approved membership that has no entry (the
 * organisation turned membership credentials off, or it began before them).
 */
function workOf(
  achievements: ResumeInput["achievements"],
  shown: ResumeInput["achievements"],
  memberships: ResumeInput["memberships"],
) {
  const withEntry = new Set(
    achievements
      .filter((entry) => entry.membershipOrganizationId && !entry.membershipEndedOn)
      .map((entry) => entry.membershipOrganizationId),
  );
  const work = [
    ...shown
      .filter((entry) => entry.membershipOrganizationId)
      .map((entry) =>
        present({ name: entry.organizationName ?? undefined, startDate: entry.date, endDate: entry.membershipEndedOn }),
      ),
    ...memberships
      .filter(
        (membership) =>
          membership.status === "approved" && membership.approvedAt && !withEntry.has(membership.organizationId),
      )
      .map((membership) => ({ name: membership.organizationName, startDate: isoDate(membership.approvedAt!) })),
  ];
  // Current work first, then by when it ended, then by when it began.
  const order = (entry: Record<string, unknown>) => `${String(entry.endDate ?? "9999")} ${String(entry.startDate)}`;
  return work.sort((a, b) => order(b).localeCompare(order(a)));
}
