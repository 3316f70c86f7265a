import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";

const tableNames = async () => {
  const { results } = await env.DB.prepare(
    "select name from sqlite_master where type = 'table' and name not like '\\_%' escape '\\' and name not like 'sqlite%' and name != 'd1_migrations' order by name",
  ).all<{ name: string }>();
  return results.map((row) => row.name);
};

const insertUser = (id: string) =>
  env.DB.prepare(
    "insert into users (id, name, email, email_verified, created_at, updated_at) values (?, 'A', ?, 1, 0, 0)",
  )
    .bind(id, `${id}@example.com`)
    .run();

describe("migrations", () => {
  it("create every table of the data model in an empty database", async () => {
    expect(await tableNames()).toEqual([
      "accounts",
      "achievement_acceptances",
      "achievements",
      "backup_erasures",
      "beta_feedback",
      "credential_holders",
      "credential_status_lists",
      "credentials",
      "dev_dns_records",
      "dev_mail",
      "dev_web_documents",
      "endorsements",
      "imported_credentials",
      "member_name_words",
      "membership_removals",
      "notifications",
      "openid4vci_grants",
      "organization_domains",
      "organization_keys",
      "organization_members",
      "organization_roles",
      "organizations",
      "other_addresses",
      "passkeys",
      "pending_organization_setups",
      "processed_stripe_events",
      "profiles",
      "rate_limits",
      "recognition_days",
      "sessions",
      "stored_files",
      "two_factors",
      "users",
      "verifications",
      "wallet_exchanges",
    ]);
  });

  it("refuse values outside the enumerations", async () => {
    const userId = crypto.randomUUID();
    await insertUser(userId);
    await expect(
      env.DB.prepare(
        "insert into profiles (id, full_name, user_type, created_at, updated_at) values (?, 'A', 'personal', 0, 0)",
      )
        .bind(userId)
        .run(),
    ).rejects.toThrow(/CHECK constraint failed/);
    await expect(
      env.DB.prepare(
        "insert into notifications (id, user_id, title, message, type, created_at) values (?, ?, 't', 'm', 'shout', 0)",
      )
        .bind(crypto.randomUUID(), userId)
        .run(),
    ).rejects.toThrow(/CHECK constraint failed/);
  });

  it("remove a user's rows with the user (ON DELETE CASCADE)", async () => {
    const userId = crypto.randomUUID();
    await insertUser(userId);
    await env.DB.batch([
      env.DB.prepare(
        "insert into profiles (id, full_name, user_type, created_at, updated_at) values (?, 'A', 'individual', 0, 0)",
      ).bind(userId),
      env.DB.prepare(
        "insert into notifications (id, user_id, title, message, created_at) values (?, ?, 't', 'm', 0)",
      ).bind(crypto.randomUUID(), userId),
    ]);
    await env.DB.prepare("delete from users where id = ?").bind(userId).run();
    const left = await env.DB.prepare(
      "select (select count(*) from profiles where id = ?1) + (select count(*) from notifications where user_id = ?1) as n",
    )
      .bind(userId)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });

  it("leave an organisation written without the admin sign-in setting open to admins without a strong factor", async () => {
    const id = crypto.randomUUID();
    await env.DB.prepare(
      "insert into organizations (id, name, invite_code, created_at) values (?, 'Old Org', 'code', 0)",
    )
      .bind(id)
      .run();
    const row = await env.DB.prepare("select require_two_factor as required from organizations where id = ?")
      .bind(id)
      .first<{ required: number }>();
    expect(row?.required).toBe(0);
  });

  it("index the public passport query", async () => {
    const { results } = await env.DB.prepare(
      "explain query plan select * from achievements where user_id = ? and status = 'accepted' and is_visible = 1 order by date desc limit 8",
    )
      .bind("x")
      .all<{ detail: string }>();
    expect(results.map((row) => row.detail).join(" ")).toContain("achievements_user_status_date_idx");
  });
});
