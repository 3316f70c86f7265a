// How a membership is named. Memberships (organization_members) and roles (organization_roles)
// are read and written only in db/queries/memberships/, one module per job; each names a
// membership by an object, `{ userId, organizationId }`, never by two positional ids, so swapping
// them cannot pass unnoticed.

/** One person in one organisation. */
export type MemberKey = { userId: string; organizationId: string };
/** A membership row as the services act on it. */
export type MembershipRef = MemberKey & { id: string };
