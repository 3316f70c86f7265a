import { eq } from "drizzle-orm";
import type { Db } from "../client.ts";
import { profiles } from "../schema.ts";

/** What every signed-in page needs to know about its viewer. */
export async function findViewerProfile(db: Db, userId: string) {
  const [row] = await db
    .select({
      fullName: profiles.fullName,
      userType: profiles.userType,
      activeOrganizationId: profiles.activeOrganizationId,
      deletedAt: profiles.deletedAt,
    })
    .from(profiles)
    .where(eq(profiles.id, userId))
    .limit(1);
  return row ?? null;
}
