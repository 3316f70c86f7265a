import { DEMO_ACHIEVEMENTS, DEMO_ORGANISATION, DEMO_PROFILE } from "#db/demo-data.ts";
import type { PassportAchievement, PassportProfile } from "./types.ts";

// The sample passport shown by the landing page's demo and by /passport with no user id.
export const demoProfile: PassportProfile = {
  ...DEMO_PROFILE,
  avatarUrl: null,
  introVideoUrl: null,
  introVideoThumbnailUrl: null,
};

/**
 * The sample timeline, its organisation's achievements marked as the seeded demo shows them: each
 * backed by a credential, its issuer's domain verified and last checked at `checkedAt` (the daily
 * re-check's, so the caller's today). The credential ids stand for the seed's, which are random
 * and exist only in a local database: the card shows that a credential exists and links nowhere.
 */
export function demoAchievements(checkedAt: number): PassportAchievement[] {
  return DEMO_ACHIEVEMENTS.map((item, index) => ({
    id: `demo-${index}`,
    title: item.fromOrganisation ? item.title : `${item.title} - ${item.company}`,
    description: item.description,
    date: item.date,
    type: item.type,
    imageUrl: item.imageUrl ?? null,
    videoUrl: null,
    organizationName: item.fromOrganisation ? DEMO_ORGANISATION.name : null,
    isSelf: !item.fromOrganisation,
    ...(item.fromOrganisation
      ? {
          credentialId: `demo-credential-${index}`,
          issuerDomain: DEMO_ORGANISATION.domain,
          issuerCheckedAt: checkedAt,
          issuerNameNotVerified: false,
        }
      : {}),
  }));
}
