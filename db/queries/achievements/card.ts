import { and, eq, isNull, type Placeholder, sql } from "drizzle-orm";
import { achievements, credentials, importedCredentials, organizations, type ImportStatus } from "../../schema.ts";
import type { Cursor } from "../paging.ts";
import { issuerIdentityColumns, verifiedDomainOf } from "../organization-domains.ts";

// A passport entry as its card reads it, and which entries a passport lists: shared by the public
// passport (public.ts) and its owner's own lists (own.ts), so both show an entry alike.

/** How a membership entry's title begins (decision 070): 'Member of {organisation}'. */
export const MEMBERSHIP_TITLE_PREFIX = "Member of ";

/**
 * The endorsements one public card carries (decision 079): its first few, with how many it has in
 * all; the rest are on the entry's own endorsements page. A card could otherwise carry every one
 * of its endorsements (up to 500 characters each) on each of up to 50 entries.
 */
export const ENDORSEMENTS_PER_CARD = 3;

export const passportColumns = {
  id: achievements.id,
  title: achievements.title,
  description: achievements.description,
  date: achievements.date,
  type: achievements.type,
  imageUrl: achievements.imageUrl,
  videoUrl: achievements.videoUrl,
  // A membership entry (decision 070) names its organisation in its title, which outlives it.
  organizationName: sql<
    string | null
  >`coalesce(${organizations.name}, case when ${achievements.membershipOrganizationId}
    is not null then substr(${achievements.title}, ${MEMBERSHIP_TITLE_PREFIX.length + 1}) end)`,
  isSelf:
    sql<boolean>`(${achievements.organizationId} is null and ${achievements.membershipOrganizationId} is null)`.mapWith(
      Boolean,
    ),
  isMembership: sql<boolean>`(${achievements.membershipOrganizationId} is not null)`.mapWith(Boolean),
  membershipEndedOn: achievements.membershipEndedOn,
  // Expiry and renewal (decision 071): the card says 'Valid until' or 'Expired on', and a
  // renewal its history.
  validUntil: achievements.validUntil,
  renewalCount: achievements.renewalCount,
  firstGivenOn: achievements.firstGivenOn,
  // The Open Badges credential behind an organisation achievement (decision 020); its verified
  // mark shows only with one.
  // Aliased: the passport's batch reads rows as objects, where a second "id" column would
  // overwrite the achievement's.
  credentialId: sql<string | null>`${credentials.id}`.as("credential_id"),
  // Who stands behind the giver's name (decision 055), said on the card of a credential; or
  // behind an imported credential's issuer's name (issue 43).
  ...issuerIdentityColumns(achievements.organizationId, {
    organizationId: importedCredentials.issuerOrganizationId,
    domain: importedCredentials.issuerDomain,
    checkedAt: importedCredentials.checkedAt,
    nameKey: importedCredentials.issuerNameKey,
  }),
  // An imported badge's standing (decision 069): null for any other entry.
  importStatus: sql<ImportStatus | null>`${importedCredentials.status}`.as("import_status"),
  importIssuer: sql<string | null>`${importedCredentials.issuerIdentity}`.as("import_issuer"),
  importRevokedAt: sql<number | null>`${importedCredentials.revokedAt}`.as("import_revoked_at"),
  // The endorsements its owner shows (decision 072): how many, and the first few (oldest first) as
  // a JSON array, null when there are none (decision 079), in the page's one round trip.
  endorsementCount: sql<number>`(select count(*) from endorsements e
    where e.achievement_id = ${achievements.id} and e.status = 'shown')`.as("endorsement_count"),
  // Each says whether a person or an organisation endorsed, and an organisation's verified domain (issue 43).
  endorsementsJson: sql<string | null>`(select case when count(*) > 0 then json_group_array(json_object('id',
    shown.id, 'name', shown.endorser_name, 'comment', shown.comment, 'byOrganization',
    shown.endorser_organization_id is not null, 'domain', ${verifiedDomainOf(sql`shown.endorser_organization_id`)}))
    end from (select e.id, e.endorser_name, e.comment, e.endorser_organization_id from endorsements e
    where e.achievement_id = ${achievements.id} and e.status = 'shown'
    order by e.created_at, e.id limit ${sql.raw(String(ENDORSEMENTS_PER_CARD))}) shown)`.as("endorsements_json"),
  // The rest of the keyset cursor (date, creation, id): newest first, as the passport has always been.
  createdAt: achievements.createdAt,
};

/** A passport entry's place in its list, newest first. */
export const passportOrder = [achievements.date, achievements.createdAt];
export const passportCursor = (row: { date: string; createdAt: Date; id: string }): Cursor => ({
  key: [row.date, row.createdAt.getTime()],
  id: row.id,
});

/** An achievement whose credential was revoked leaves every passport (its owner's too). */
export const notRevoked = sql`${credentials.revokedAt} is null`;
/** An entry whose renewal was accepted is folded into the renewal's history (decision 071): listed once. */
export const notRenewed = isNull(achievements.renewedBy);
/** An imported credential its issuer revoked leaves the public passport; its owner still sees it, marked. */
const importNotRevoked = sql`(${importedCredentials.status} is null or ${importedCredentials.status} != 'revoked')`;

/** An entry its owner's passport shows (its statement must join `credentials` and `importedCredentials`). */
export const shownOnPassport = (userId: string | Placeholder) =>
  and(
    eq(achievements.userId, userId),
    eq(achievements.status, "accepted"),
    eq(achievements.isVisible, true),
    notRevoked,
    notRenewed,
    importNotRevoked,
  );
