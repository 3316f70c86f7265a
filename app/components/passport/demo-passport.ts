import { DEMO_ACHIEVEMENTS, DEMO_ORGANISATION, DEMO_PROFILE } from "#db/demo-data.ts";
import type { PassportAchievement, PassportProfile } from "./types.ts";

// The sample passport shown by the landing page's demo and by /passport with no user id.
export const demoProfile: PassportProfile = {
  ...DEMO_PROFILE,
  avatarUrl: null,
  introVideoUrl: null,
  introVideoThumbnailUrl: null,
};

export const demoAchievements: PassportAchievement[] = DEMO_ACHIEVEMENTS.map((item, index) => ({
  id: `demo-${index}`,
  title: item.fromOrganisation ? item.title : `${item.title} - ${item.company}`,
  description: item.description,
  date: item.date,
  type: item.type,
  imageUrl: item.imageUrl ?? null,
  videoUrl: null,
  organizationName: item.fromOrganisation ? DEMO_ORGANISATION.name : null,
  isSelf: !item.fromOrganisation,
}));
