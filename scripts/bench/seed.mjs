// The benchmark's passport: one public, unarchived member of the demo organisation with 100
// accepted, visible achievements; and the offer behind the credential /verify checks. Written as
// plain SQL for `wrangler d1 execute`, because the bench runs on plain Node and cannot import the
// TypeScript seed helpers.

// From db/seed.ts: the demo organisation and its admin, who gives the organisation's achievements.
const DEMO_ORGANISATION_ID = "5eed0000-0000-4000-8000-000000000100";
const DEMO_ADMIN_ID = "5eed0000-0000-4000-8000-000000000001";

// Outside the demo seed's id range (…0001 to …0499), so the two never collide.
const benchId = (n) => `be4c0000-0000-4000-8000-${String(n).padStart(12, "0")}`;

export const BENCH_PASSPORT = { userId: benchId(1), achievements: 100 };

// The credential /verify checks (scripts/bench/verify.mjs): an achievement the demo organisation
// offers Sam (db/seed.ts, DEMO_USERS.sam), a demo member whose pages the bench does not measure.
const DEMO_SAM_ID = "5eed0000-0000-4000-8000-000000000003";
export const BENCH_CREDENTIAL = { achievementId: benchId(4), recipientEmail: "sam@example.com" };

// The offers Sam accepts with his wallet (scripts/bench/wallet.mjs), one a sample: pending
// achievements of the demo organisation, as `benchOfferId(i)`.
export const BENCH_WALLET_OFFERS = 64;
export const benchOfferId = (i) => benchId(5000 + i);

const TYPES = ["award", "training", "milestone"];
const TITLES = {
  award: [
    "Team Leader of the Year",
    "Innovation Award",
    "Customer Hero Award",
    "Safety Champion",
    "Mentor of the Quarter",
  ],
  training: [
    "Clinical Safety Training",
    "Lean Six Sigma Green Belt",
    "Mental Health First Aider",
    "Data Protection Essentials",
    "Project Management Foundation",
  ],
  milestone: [
    "Five Years of Service",
    "Store Manager Promotion",
    "First Job in Logistics",
    "Ten Thousand Deliveries",
    "Opened the Second Clinic",
  ],
};
const DESCRIPTIONS = [
  "Led the patient-transport team through a new scheduling system with zero missed appointments.",
  "Completed the organisation-wide programme with distinction and coached two colleagues through it.",
  "Cut weekly rota planning from six hours to two by redesigning the hand-over checklist.",
  "Highest customer satisfaction score in the region for two quarters running.",
  "Trained six new starters in safe handling and wrote the induction guide they now use.",
  "Designed the volunteer-driver app pilot now used by three clinics.",
  "Kept the operations desk calm, kind and on time through the winter peak.",
];

const sqlString = (value) => (value === null ? "NULL" : `'${String(value).replaceAll("'", "''")}'`);
const row = (values) =>
  `(${values.map((value) => (typeof value === "number" ? String(value) : sqlString(value))).join(", ")})`;

export function seedSql({ userId, achievements }) {
  const now = Date.now();
  const day = 24 * 60 * 60 * 1000;
  const statements = [
    `INSERT INTO users (id, name, email, email_verified, image, created_at, updated_at) VALUES ${row([userId, "Morgan Bench", "bench@example.com", 1, null, now, now])};`,
    `INSERT INTO profiles (id, full_name, user_type, bio, avatar_url, intro_video_url, intro_video_thumbnail_url, is_public, active_organization_id, deleted_at, created_at, updated_at) VALUES ${row(
      [
        userId,
        "Morgan Bench",
        "individual",
        "Operations lead with a long record: a hundred achievements across logistics, retail and healthcare.",
        null,
        null,
        null,
        1,
        DEMO_ORGANISATION_ID,
        null,
        now,
        now,
      ],
    )};`,
    `INSERT INTO organization_members (id, user_id, organization_id, status, requested_at, approved_at, subscription_status) VALUES ${row([benchId(2), userId, DEMO_ORGANISATION_ID, "approved", now - 3000 * day, now - 3000 * day, "inactive"])};`,
    `INSERT INTO organization_roles (id, user_id, organization_id, role, created_at) VALUES ${row([benchId(3), userId, DEMO_ORGANISATION_ID, "member", now - 3000 * day])};`,
  ];
  statements.push(
    `INSERT INTO achievements (id, user_id, organization_id, created_by, title, description, date, type, image_url, video_url, status, is_visible, created_at) VALUES ${row(
      [
        BENCH_CREDENTIAL.achievementId,
        DEMO_SAM_ID,
        DEMO_ORGANISATION_ID,
        DEMO_ADMIN_ID,
        "Patient Transport Coordinator",
        DESCRIPTIONS[0],
        new Date(now - day).toISOString().slice(0, 10),
        "training",
        null,
        null,
        "pending",
        1,
        now - day,
      ],
    )};`,
  );
  for (let i = 0; i < achievements; i++) {
    const type = TYPES[i % TYPES.length];
    // Alternate organisation and self achievements, as a real passport mixes both.
    const fromOrganisation = i % 2 === 0;
    const title = TITLES[type][i % TITLES[type].length] + (fromOrganisation ? "" : " - Harbour Retail");
    const date = new Date(now - (i * 30 + 10) * day);
    statements.push(
      `INSERT INTO achievements (id, user_id, organization_id, created_by, title, description, date, type, image_url, video_url, status, is_visible, created_at) VALUES ${row(
        [
          benchId(1000 + i),
          userId,
          fromOrganisation ? DEMO_ORGANISATION_ID : null,
          fromOrganisation ? DEMO_ADMIN_ID : userId,
          `${title} #${achievements - i}`,
          DESCRIPTIONS[i % DESCRIPTIONS.length],
          date.toISOString().slice(0, 10),
          type,
          // Every fourth entry has an image, the first one included (the first screen's image).
          i % 4 === 0 ? (type === "milestone" ? "/demo/milestone.svg" : "/demo/award.svg") : null,
          null,
          "accepted",
          1,
          date.getTime(),
        ],
      )};`,
    );
  }
  for (let i = 0; i < BENCH_WALLET_OFFERS; i++) {
    statements.push(
      `INSERT INTO achievements (id, user_id, organization_id, created_by, title, description, date, type, image_url, video_url, status, is_visible, created_at) VALUES ${row(
        [
          benchOfferId(i),
          DEMO_SAM_ID,
          DEMO_ORGANISATION_ID,
          DEMO_ADMIN_ID,
          `Wallet Acceptance #${i + 1}`,
          DESCRIPTIONS[i % DESCRIPTIONS.length],
          new Date(now - day).toISOString().slice(0, 10),
          "award",
          null,
          null,
          "pending",
          1,
          now - day,
        ],
      )};`,
    );
  }
  return statements.join("\n") + "\n";
}
