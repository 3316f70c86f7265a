import type { APIRequestContext } from "@playwright/test";

/**
 * Runs SQL against the test server's local D1, through the test entry's POST /__test/sql
 * (workers/testing/sql-route.ts), in one batch: making dozens of rows through the forms would
 * take minutes.
 */
async function runSql(request: APIRequestContext, statements: string[]) {
  const response = await request.post("/__test/sql", { data: { statements } });
  if (response.status() !== 204) throw new Error(`/__test/sql answered ${response.status()}: ${await response.text()}`);
}

// The bulk rows the e2e specs seed, the same shapes as tests/workers/seed.ts: kept here so that
// no spec writes its own SQL.

/** A SQL string literal. */
const text = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** People (a user and a public individual profile each), approved members of the organisation at the given times. */
export function seedMembers(
  request: APIRequestContext,
  organizationId: string,
  rows: { name: string; approvedAt: number }[],
) {
  return runSql(
    request,
    rows.flatMap(({ name, approvedAt }) => {
      const id = crypto.randomUUID();
      return [
        `insert into users (id, name, email, email_verified, created_at, updated_at) values (${text(id)}, ${text(name)}, ${text(`${id}@example.com`)}, 1, 0, 0);`,
        `insert into profiles (id, full_name, user_type, is_public, created_at, updated_at) values (${text(id)}, ${text(name)}, 'individual', 1, 0, 0);`,
        `insert into organization_members (id, user_id, organization_id, status, requested_at, approved_at, subscription_status) values (${text(crypto.randomUUID())}, ${text(id)}, ${text(organizationId)}, 'approved', ${approvedAt}, ${approvedAt}, 'inactive');`,
      ];
    }),
  );
}

/** Accepted, shown achievements a person added themselves, with their own dates and creation times. */
export function seedAchievements(
  request: APIRequestContext,
  userId: string,
  rows: { title: string; date: string; createdAt: number }[],
) {
  return runSql(
    request,
    rows.map(
      ({ title, date, createdAt }) =>
        `insert into achievements (id, user_id, organization_id, created_by, title, date, type, status, is_visible, created_at) values (${text(crypto.randomUUID())}, ${text(userId)}, null, ${text(userId)}, ${text(title)}, ${text(date)}, 'award', 'accepted', 1, ${createdAt});`,
    ),
  );
}

/** Read notifications for a person, titled as given, at the given times. */
export function seedNotifications(
  request: APIRequestContext,
  userId: string,
  rows: { title: string; createdAt: number }[],
) {
  return runSql(
    request,
    rows.map(
      ({ title, createdAt }) =>
        `insert into notifications (id, user_id, title, message, type, read, created_at) values (${text(crypto.randomUUID())}, ${text(userId)}, ${text(title)}, 'Seeded', 'info', 1, ${createdAt});`,
    ),
  );
}

/** `count` entries of imported history of the person's own (as 'Import history' adds them). */
export function seedHistoryEntries(request: APIRequestContext, userId: string, count: number) {
  return runSql(request, [
    `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
     insert into achievements (id, user_id, created_by, title, date, type, status, is_visible, submission_key, created_at)
     select 'seeded-' || i || '-' || ${text(userId)}, ${text(userId)}, ${text(userId)}, 'Role ' || i, '2020-01-01',
       'milestone', 'accepted', 1, 'history:' || substr('000000000000000000000000' || i, -24), 0 from n;`,
  ]);
}
