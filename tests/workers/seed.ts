import { env } from "cloudflare:test";

// Bulk rows the forms cannot make: fixed timestamps (to pin an order and its ties) and more rows
// than a test could post one by one. Every other piece of test data comes from factories.ts,
// through the product's forms; only the paging tests seed here, and only through these helpers.

/** D1 takes at most this many statements per batch comfortably; larger seeds go in slices. */
const BATCH = 500;

async function runBatched(statements: D1PreparedStatement[]) {
  for (let start = 0; start < statements.length; start += BATCH)
    await env.DB.batch(statements.slice(start, start + BATCH));
}

export type SeedAchievement = {
  userId: string;
  title: string;
  createdAt: number;
  /** Defaults to the person themselves (a self-added entry). */
  createdBy?: string;
  organizationId?: string | null;
  date?: string;
  status?: "accepted" | "pending";
  visible?: boolean;
};

/** Achievement rows as given, with their own dates and creation times. */
export function seedAchievements(rows: SeedAchievement[]) {
  return runBatched(
    rows.map(
      ({
        userId,
        title,
        createdAt,
        createdBy = userId,
        organizationId = null,
        date = "2024-01-01",
        status = "accepted",
        visible = true,
      }) =>
        env.DB.prepare(
          "insert into achievements (id, user_id, organization_id, created_by, title, date, type, status, is_visible, created_at) values (?, ?, ?, ?, ?, ?, 'award', ?, ?, ?)",
        ).bind(crypto.randomUUID(), userId, organizationId, createdBy, title, date, status, visible ? 1 : 0, createdAt),
    ),
  );
}

/** Unread notifications for a person, titled as given, at the given times. */
export function seedNotifications(userId: string, rows: { title: string; createdAt: number }[]) {
  return runBatched(
    rows.map(({ title, createdAt }) =>
      env.DB.prepare(
        "insert into notifications (id, user_id, title, message, type, read, created_at) values (?, ?, ?, 'm', 'info', 0, ?)",
      ).bind(crypto.randomUUID(), userId, title, createdAt),
    ),
  );
}

/**
 * Organisations with the given names (no admin account), and, with `memberId`, that person as
 * an approved member of each. Returns their ids in the names' order.
 */
export async function seedOrganisations(names: string[], { memberId }: { memberId?: string } = {}) {
  const ids = names.map(() => crypto.randomUUID());
  await runBatched(
    names.flatMap((name, i) => [
      env.DB.prepare("insert into organizations (id, name, invite_code, created_at) values (?, ?, ?, 0)").bind(
        ids[i],
        name,
        crypto.randomUUID(),
      ),
      ...(memberId
        ? [
            env.DB.prepare(
              "insert into organization_members (id, user_id, organization_id, status, requested_at, approved_at, subscription_status) values (?, ?, ?, 'approved', 0, 0, 'inactive')",
            ).bind(crypto.randomUUID(), memberId, ids[i]),
          ]
        : []),
    ]),
  );
  return ids;
}

/**
 * People (a user and a public individual profile each) in an organisation with `status`,
 * requested (and, when approved, approved) at the given time.
 */
export function seedMembers(
  organizationId: string,
  rows: { name: string; status: "approved" | "pending"; requestedAt: number }[],
) {
  return runBatched(
    rows.flatMap(({ name, status, requestedAt }) => {
      const id = crypto.randomUUID();
      return [
        env.DB.prepare(
          "insert into users (id, name, email, email_verified, created_at, updated_at) values (?, ?, ?, 1, 0, 0)",
        ).bind(id, name, `${id}@example.com`),
        env.DB.prepare(
          "insert into profiles (id, full_name, user_type, is_public, created_at, updated_at) values (?, ?, 'individual', 1, 0, 0)",
        ).bind(id, name),
        env.DB.prepare(
          "insert into organization_members (id, user_id, organization_id, status, requested_at, approved_at, subscription_status) values (?, ?, ?, ?, ?, ?, 'inactive')",
        ).bind(
          crypto.randomUUID(),
          id,
          organizationId,
          status,
          requestedAt,
          status === "approved" ? requestedAt : null,
        ),
      ];
    }),
  );
}
