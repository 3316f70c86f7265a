// The scale benchmark's world (issue 18), as bulk SQL for `wrangler d1 execute --file`: the demo
// organisation grown to 10,000 approved members and 500 pending requests with 100,000
// achievements given over 3 years, 1,000 more organisations for the directory, and one person
// with 2,000 accepted achievements. Multi-row INSERTs of literal values (no bound parameters, so
// the 100-parameter limit does not apply): seconds, where the app's own code paths would take
// hours on a 2-core machine.

// From db/seed.ts: the demo organisation, its admin (who gives the achievements) and Alex, whose
// password hash the bench person borrows so it can sign in with the demo password.
export const DEMO_ORGANISATION_ID = "5eed0000-0000-4000-8000-000000000100";
const DEMO_ADMIN_ID = "5eed0000-0000-4000-8000-000000000001";
const DEMO_ALEX_ID = "5eed0000-0000-4000-8000-000000000002";

export const SCALE = {
  approvedMembers: 10_000,
  pendingRequests: 500,
  achievements: 100_000,
  achievementYears: 3,
  otherOrganisations: 1_000,
  personAchievements: 2_000,
};

/** Ids in their own range per kind (the demo seed uses 5eed…, the passport bench be4c…0001+). */
const scaleId = (kind, n) => `5ca1e${kind}00-0000-4000-8000-${String(n).padStart(12, "0")}`;
export const BENCH_PERSON = { id: scaleId(9, 1), email: "scale-person@example.com", name: "Robin Longcareer" };
export const memberId = (n) => scaleId(1, n);

const FIRST = ["Avery", "Blake", "Casey", "Devon", "Emery", "Finley", "Harper", "Jesse", "Kai", "Logan"];
const FIRST_MORE = ["Morgan", "Noor", "Oakley", "Parker", "Quinn", "Reese", "Sasha", "Taylor", "Uma", "Wren"];
const LAST = [
  "Adeyemi",
  "Baker",
  "Chen",
  "Dubois",
  "Evans",
  "Fischer",
  "Garcia",
  "Hughes",
  "Ivanova",
  "Jones",
  "Kowalski",
  "Lopez",
  "Murphy",
  "Nakamura",
  "Okafor",
  "Patel",
  "Quinteros",
  "Rossi",
  "Smith",
  "Tanaka",
  "Usman",
  "Varga",
  "Whitfield",
  "Xu",
  "Yilmaz",
  "Zielinski",
  "Ahmed",
  "Brown",
  "Costa",
  "Dimitrov",
];
const firstNames = [...FIRST, ...FIRST_MORE];
/** 600 distinct names, each shared by about 17 members: a surname search finds about 333. */
const nameOf = (n) => `${firstNames[n % firstNames.length]} ${LAST[Math.floor(n / firstNames.length) % LAST.length]}`;
/** The member search the benchmark runs: one surname of thirty. */
export const MEMBER_SEARCH = "Whitfield";
/** The directory search: matches one organisation in ten. */
export const DIRECTORY_SEARCH = "Clinic";

const TYPES = ["award", "training", "milestone"];
const TITLES = ["Team Leader of the Year", "Clinical Safety Training", "Five Years of Service", "Innovation Award"];
const DESCRIPTION = "Recognised for calm, kind and careful work through the winter peak.";

const sqlString = (value) => (value === null ? "NULL" : `'${String(value).replaceAll("'", "''")}'`);
const tuple = (values) =>
  `(${values.map((value) => (typeof value === "number" ? String(value) : sqlString(value))).join(",")})`;
/** Rows per INSERT: well under SQLite's 500-term VALUES limit and D1's 100 kB statement size. */
const ROWS_PER_INSERT = 200;

function inserts(table, columns, rows) {
  const statements = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const values = rows
      .slice(start, start + ROWS_PER_INSERT)
      .map(tuple)
      .join(",\n");
    statements.push(`INSERT INTO ${table} (${columns.join(", ")}) VALUES\n${values};`);
  }
  return statements;
}

/** A small deterministic generator, so every run seeds the same world. */
function random(seed) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** The scale world as SQL statements, in the order they must run. */
export function scaleSeedStatements(now = Date.now()) {
  const day = 24 * 60 * 60 * 1000;
  const span = SCALE.achievementYears * 365 * day;
  const next = random(18);
  const people = [];
  const memberships = [];
  const roles = [];
  const addPerson = (id, name, createdAt) => {
    const email = `${id}@scale.example.com`;
    people.push({ id, name, email, createdAt });
  };
  // Approved members joined over the 3 years; pending requests arrived over the last 60 days.
  for (let n = 1; n <= SCALE.approvedMembers; n++) {
    const id = memberId(n);
    const requestedAt = now - span + Math.floor(next() * (span - day));
    addPerson(id, nameOf(n), requestedAt);
    memberships.push([scaleId(2, n), id, DEMO_ORGANISATION_ID, "approved", requestedAt, requestedAt + day, "inactive"]);
    roles.push([scaleId(3, n), id, DEMO_ORGANISATION_ID, "member", requestedAt + day]);
  }
  for (let n = 1; n <= SCALE.pendingRequests; n++) {
    const id = scaleId(4, n);
    const requestedAt = now - Math.floor(next() * 60 * day);
    addPerson(id, nameOf(SCALE.approvedMembers + n), requestedAt);
    memberships.push([scaleId(5, n), id, DEMO_ORGANISATION_ID, "pending", requestedAt, null, "inactive"]);
  }

  const achievementRows = [];
  for (let n = 1; n <= SCALE.achievements; n++) {
    const createdAt = now - Math.floor(next() * span);
    const roll = next();
    const status = roll < 0.8 ? "accepted" : roll < 0.95 ? "pending" : "rejected";
    const type = TYPES[n % TYPES.length];
    achievementRows.push([
      scaleId(6, n),
      memberId(1 + Math.floor(next() * SCALE.approvedMembers)),
      DEMO_ORGANISATION_ID,
      DEMO_ADMIN_ID,
      `${TITLES[n % TITLES.length]} #${n}`,
      DESCRIPTION,
      new Date(createdAt).toISOString().slice(0, 10),
      type,
      status,
      1,
      createdAt,
    ]);
  }
  // The person: 2,000 accepted achievements over 40 years, half given by the organisation.
  for (let n = 1; n <= SCALE.personAchievements; n++) {
    const createdAt = now - Math.floor((n / SCALE.personAchievements) * 40 * 365 * day);
    const fromOrganisation = n % 2 === 0;
    achievementRows.push([
      scaleId(7, n),
      BENCH_PERSON.id,
      fromOrganisation ? DEMO_ORGANISATION_ID : null,
      fromOrganisation ? DEMO_ADMIN_ID : BENCH_PERSON.id,
      `${TITLES[n % TITLES.length]} ${fromOrganisation ? "" : "- Harbour Retail "}#${n}`,
      DESCRIPTION,
      new Date(createdAt).toISOString().slice(0, 10),
      TYPES[n % TYPES.length],
      "accepted",
      1,
      createdAt,
    ]);
  }

  const organisations = [];
  const kinds = ["Clinic", "Logistics", "Retail", "School", "Bakery", "Garage", "Studio", "Library", "Farm", "Hotel"];
  for (let n = 1; n <= SCALE.otherOrganisations; n++) {
    organisations.push([scaleId(8, n), `${["North", "South", "East", "West"][n % 4]} ${kinds[n % kinds.length]} ${n}`]);
  }

  const statements = [
    ...inserts(
      "users",
      ["id", "name", "email", "email_verified", "created_at", "updated_at"],
      [
        ...people.map((person) => [person.id, person.name, person.email, 1, person.createdAt, person.createdAt]),
        [BENCH_PERSON.id, BENCH_PERSON.name, BENCH_PERSON.email, 1, now - 400 * day, now - 400 * day],
      ],
    ),
    ...inserts(
      "profiles",
      // Recognition e-mails off: the bench's gives would otherwise each write the dev mailbox's row,
      // a local stand-in for the mail API that production does not have (decision 031).
      ["id", "full_name", "user_type", "bio", "is_public", "recognition_emails", "created_at", "updated_at"],
      [
        ...people.map((person) => [
          person.id,
          person.name,
          "individual",
          null,
          1,
          0,
          person.createdAt,
          person.createdAt,
        ]),
        [BENCH_PERSON.id, BENCH_PERSON.name, "individual", "Forty years of achievements.", 1, 0, now, now],
      ],
    ),
    // The person signs in with the demo password (the hash is Alex's) and has no active
    // organisation, so their dashboard offers the directory search.
    `INSERT INTO accounts (id, account_id, provider_id, user_id, password, created_at, updated_at) SELECT ${sqlString(BENCH_PERSON.id)}, ${sqlString(BENCH_PERSON.id)}, 'credential', ${sqlString(BENCH_PERSON.id)}, password, created_at, updated_at FROM accounts WHERE user_id = ${sqlString(DEMO_ALEX_ID)};`,
    ...inserts(
      "organization_members",
      ["id", "user_id", "organization_id", "status", "requested_at", "approved_at", "subscription_status"],
      [
        ...memberships,
        [
          scaleId(2, 0),
          BENCH_PERSON.id,
          DEMO_ORGANISATION_ID,
          "approved",
          now - 400 * day,
          now - 399 * day,
          "inactive",
        ],
      ],
    ),
    ...inserts("organization_roles", ["id", "user_id", "organization_id", "role", "created_at"], roles),
    ...inserts(
      "achievements",
      [
        "id",
        "user_id",
        "organization_id",
        "created_by",
        "title",
        "description",
        "date",
        "type",
        "status",
        "is_visible",
        "created_at",
      ],
      achievementRows,
    ),
    ...inserts(
      "organizations",
      ["id", "name", "invite_code", "created_at"],
      organisations.map(([id, name], index) => [id, name, `scale-invite-${index}`, now - 1000 * day]),
    ),
    // Fresh statistics for the query planner, as a long-lived database would have.
    "ANALYZE;",
  ];
  return statements;
}
