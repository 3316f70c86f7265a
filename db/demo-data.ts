import type { AchievementType } from "./schema.ts";

// Sample content shared by the landing page's demo passport and the local seed, so what a
// visitor sees in the demo is what a developer finds after `npm start`.
export const DEMO_PROFILE = {
  fullName: "Alex Morgan",
  bio: "Operations lead who likes turning messy processes into calm ones. Ten years across logistics, retail and healthcare.",
};

export const DEMO_ORGANISATION = {
  name: "Northwind Health",
  description: "A community health provider recognising the people who keep it running.",
  /**
   * The domain it proved it owns (decision 055), so that its credentials show who stands behind
   * the name. Under .example, reserved for examples (RFC 2606): it can never be anyone's real site.
   */
  domain: "northwind-health.example",
};

export type DemoAchievement = {
  title: string;
  description: string;
  date: string;
  type: AchievementType;
  /** Null: a self achievement, stored as "title - company" with no organisation. */
  fromOrganisation: boolean;
  company?: string;
  imageUrl?: string;
};

export const DEMO_ACHIEVEMENTS: DemoAchievement[] = [
  {
    title: "Team Leader of the Year",
    description: "Led the patient-transport team through a new scheduling system with zero missed appointments.",
    date: "2025-11-14",
    type: "award",
    fromOrganisation: true,
    imageUrl: "/demo/award.svg",
  },
  {
    title: "Clinical Safety Training",
    description: "Completed the organisation-wide clinical safety programme with distinction.",
    date: "2025-09-02",
    type: "training",
    fromOrganisation: true,
  },
  {
    title: "Five Years of Service",
    description: "Five years of keeping the operations desk calm, kind and on time.",
    date: "2025-06-30",
    type: "milestone",
    fromOrganisation: true,
    imageUrl: "/demo/milestone.svg",
  },
  {
    title: "Lean Six Sigma Green Belt",
    description: "Certified in process improvement; cut weekly rota planning from six hours to two.",
    date: "2024-12-05",
    type: "training",
    fromOrganisation: false,
    company: "Process Institute",
  },
  {
    title: "Innovation Award",
    description: "Designed the volunteer-driver app pilot now used by three clinics.",
    date: "2024-07-19",
    type: "award",
    fromOrganisation: true,
  },
  {
    title: "Mental Health First Aider",
    description: "Qualified to support colleagues in crisis and signpost them to help.",
    date: "2024-03-11",
    type: "training",
    fromOrganisation: true,
  },
  {
    title: "Store Manager Promotion",
    description: "Promoted to run the flagship store and its team of 24.",
    date: "2022-10-01",
    type: "milestone",
    fromOrganisation: false,
    company: "Harbour Retail",
  },
  {
    title: "Customer Hero Award",
    description: "Highest customer satisfaction score in the region for two quarters running.",
    date: "2021-08-20",
    type: "award",
    fromOrganisation: false,
    company: "Harbour Retail",
  },
  {
    title: "Forklift and Warehouse Safety",
    description: "Certified operator; trained six new starters in safe handling.",
    date: "2019-05-14",
    type: "training",
    fromOrganisation: false,
    company: "Swift Logistics",
  },
  {
    title: "First Job in Logistics",
    description: "Started on the night shift and learned how a warehouse really works.",
    date: "2016-02-01",
    type: "milestone",
    fromOrganisation: false,
    company: "Swift Logistics",
  },
];
