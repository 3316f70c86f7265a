import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "#workers/test-app.ts";
import { createDb } from "#db/client.ts";
import { userStatements } from "#db/seed.ts";
import { profiles } from "#db/schema.ts";
import { eq } from "drizzle-orm";

const DAY = 24 * 60 * 60 * 1000;

async function archivedUser(daysAgo: number | null) {
  const db = createDb(env.DB);
  const id = crypto.randomUUID();
  const user = { id, email: `${id}@example.com`, name: "Archived", userType: "individual" as const };
  await db.batch(userStatements(db, user, "hash") as [ReturnType<typeof userStatements>[number]]);
  if (daysAgo !== null) {
    await db
      .update(profiles)
      .set({ deletedAt: new Date(Date.now() - daysAgo * DAY) })
      .where(eq(profiles.id, id));
  }
  await env.MEDIA.put(`avatars/${id}/avatar.png`, "x");
  return id;
}

const exists = async (id: string) =>
  Boolean(await env.DB.prepare("select 1 from users where id = ?").bind(id).first()) ||
  Boolean(await env.MEDIA.head(`avatars/${id}/avatar.png`));

describe("the daily cron", () => {
  it("purges accounts archived over 30 days ago, with their media, and keeps the rest", async () => {
    const expired = await archivedUser(31);
    const recent = await archivedUser(5);
    const active = await archivedUser(null);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "0 3 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);

    expect(await exists(expired)).toBe(false);
    expect(await exists(recent)).toBe(true);
    expect(await exists(active)).toBe(true);
  });
});
