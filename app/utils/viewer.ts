import type { MemberOrganizations } from "#db/queries/memberships/person-memberships.ts";
import type { ViewerProfile } from "#db/queries/profiles.ts";

/**
 * The signed-in person as every page of the signed-in area knows them: what the guard
 * (`requireViewer`, session.server.ts) returns and the `_app` loader sends the browser. A plain
 * module, so that browser code can name the type without importing server code.
 */
export type Viewer = Omit<ViewerProfile, "activeOrganizationId" | "deletedAt"> & {
  id: string;
  email: string;
  sessionId: string;
  /** When the account was archived; null while it is active. */
  archivedAt: ViewerProfile["deletedAt"];
  /** One page of the organisations the person is an approved member of (the switcher's). */
  organizations: MemberOrganizations["items"];
  organizationPages: Pick<MemberOrganizations, "total" | "next" | "previous">;
  activeOrganization: MemberOrganizations["active"];
};
