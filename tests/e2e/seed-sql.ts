import type { Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Runs SQL straight against the test server's local D1 (as the benchmark seeds): making dozens
 * of rows through the forms would take minutes. While it writes, the server's own reads fail
 * with SQLITE_BUSY, so the specs that call it run alone (playwright.config.ts, "bulk-seeded")
 * and take their pages off the site first (`leaveSite`).
 */
export function runSql(statements: string[]) {
  const file = join(mkdtempSync(join(tmpdir(), "e2e-seed-")), "seed.sql");
  writeFileSync(file, statements.join("\n"));
  execFileSync(
    "npx",
    ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", ".wrangler/e2e", "--file", file, "--yes"],
    { stdio: "ignore", env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1" } },
  );
}

/** Leaves the site, so that nothing the page runs (its notification socket, a poll) reaches the server mid-seed. */
export async function leaveSite(page: Page) {
  await page.goto("about:blank");
}

// The bulk rows the e2e specs seed, the same shapes as tests/workers/seed.ts: kept here so that
// no spec writes its own SQL.

/** A SQL string literal. */
const text = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** People (a user and a public individual profile each), approved members of the organisation at the given times. */
export function seedMembers(organizationId: string, rows: { name: string; approvedAt: number }[]) {
  runSql(
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
export function seedAchievements(userId: string, rows: { title: string; date: string; createdAt: number }[]) {
  runSql(
    rows.map(
      ({ title, date, createdAt }) =>
        `insert into achievements (id, user_id, organization_id, created_by, title, date, type, status, is_visible, created_at) values (${text(crypto.randomUUID())}, ${text(userId)}, null, ${text(userId)}, ${text(title)}, ${text(date)}, 'award', 'accepted', 1, ${createdAt});`,
    ),
  );
}

/** Read notifications for a person, titled as given, at the given times. */
export function seedNotifications(userId: string, rows: { title: string; createdAt: number }[]) {
  runSql(
    rows.map(
      ({ title, createdAt }) =>
        `insert into notifications (id, user_id, title, message, type, read, created_at) values (${text(crypto.randomUUID())}, ${text(userId)}, ${text(title)}, 'Seeded', 'info', 1, ${createdAt});`,
    ),
  );
}
