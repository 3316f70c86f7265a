import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "#db/client.ts";
import { DEMO_PASSWORD, DEMO_USERS, seed } from "#db/seed.ts";
import { signIn } from "./helpers.ts";

const counts = async () =>
  env.DB.prepare(
    `select (select count(*) from users) as users, (select count(*) from accounts) as accounts,
       (select count(*) from profiles) as profiles, (select count(*) from organizations) as organizations,
       (select count(*) from organization_roles) as roles, (select count(*) from organization_members) as members,
       (select count(*) from achievements) as achievements`,
  ).first();

describe("seed", () => {
  it("creates the demo world once, however often it runs", async () => {
    const db = createDb(env.DB);
    await seed(db);
    const first = await counts();
    await seed(db);
    expect(await counts()).toEqual(first);
    expect(first).toMatchObject({ users: 4, organizations: 1, members: 4 });

    const alexPublic = await env.DB.prepare(
      "select count(*) as n from achievements where user_id = ? and status = 'accepted' and is_visible = 1",
    )
      .bind(DEMO_USERS.alex.id)
      .first<{ n: number }>();
    expect(alexPublic?.n).toBeGreaterThan(8);
  });

  it("prints credentials that really sign in", async () => {
    await seed(createDb(env.DB));
    // Through the sign-in form, the only way in since the JSON sign-in is no longer served.
    const response = await signIn(DEMO_USERS.admin.email, DEMO_PASSWORD);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
    expect(response.headers.get("Set-Cookie")).toContain("session_token");
  });
});
