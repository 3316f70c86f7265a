import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  env,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "#workers/test-app.ts";
import { RECONCILE_CURSOR_KEY, reconcileMediaBackup } from "#workers/media-backup.ts";
import { BACKUP_LOCK_DAYS, purgeUser } from "#app/services/account-purge.server.ts";
import { createDb } from "#db/client.ts";
import { expectConsoleError } from "./console-errors.ts";
import { countRows, createAccount, PNG_BYTES, postMultipart, profileMediaForm, toastFrom } from "./helpers.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

// The media backup (decision 077, docs/operations.md): every object the app writes to the live
// bucket reaches the backup bucket, through R2's event notifications (the queue) or the daily
// reconciliation, with the same bytes and metadata, and a delete in the live bucket deletes nothing
// there.

/** An R2 event notification, as R2 sends it to the queue. */
const event = (action: string, key: string, id = crypto.randomUUID()) => ({
  id,
  timestamp: new Date(),
  attempts: 1,
  body: {
    account: "0123456789abcdef",
    action,
    bucket: "career-passport-media",
    object: { key, size: 1, eTag: "e" },
    eventTime: new Date().toISOString(),
  },
});

async function consume(messages: ReturnType<typeof event>[]) {
  const batch = createMessageBatch("media-backup", messages);
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  return getQueueResult(batch, ctx);
}

async function uploadedAvatarKey() {
  const person = await createAccount();
  const form = profileMediaForm("upload-avatar", { avatar: new File([PNG_BYTES], "a.png", { type: "image/png" }) });
  expect(toastFrom(await postMultipart("/profile/media", form, { cookie: person.cookie }))?.title).toBe(
    "Avatar updated",
  );
  return (await env.MEDIA.list({ prefix: `avatars/${person.id}/` })).objects[0]!.key;
}

describe("the media backup", () => {
  it("copies each object an upload wrote, byte for byte with its type, and keeps it after the live delete", async () => {
    const key = await uploadedAvatarKey();
    const result = await consume([event("PutObject", key), event("DeleteObject", key)]);
    expect(result.explicitAcks).toHaveLength(2);
    expect(result.retryMessages).toEqual([]);
    const copy = (await env.MEDIA_BACKUP.get(key))!;
    expect(copy.httpMetadata?.contentType).toBe("image/png");
    expect(new Uint8Array(await copy.arrayBuffer())).toEqual(PNG_BYTES);

    await env.MEDIA.delete(key);
    expect(await consume([event("DeleteObject", key)])).toMatchObject({ retryMessages: [] });
    expect(await env.MEDIA_BACKUP.head(key)).not.toBeNull();
  });

  it("acknowledges an object deleted before its copy, and retries a copy that failed", async () => {
    expect((await consume([event("PutObject", "avatars/gone/never-there.png")])).explicitAcks).toHaveLength(1);
    expect(await env.MEDIA_BACKUP.head("avatars/gone/never-there.png")).toBeNull();

    expectConsoleError(/"media backup copy failed"/);
    const key = await uploadedAvatarKey();
    const put = env.MEDIA_BACKUP.put;
    env.MEDIA_BACKUP.put = () => Promise.reject(new Error("backup bucket unavailable"));
    try {
      const failed = event("PutObject", key);
      expect((await consume([failed])).retryMessages).toEqual([{ msgId: failed.id }]);
    } finally {
      env.MEDIA_BACKUP.put = put;
    }
  });

  it("reconciles what the queue missed, a stretch of keys a day, and starts again after the end", async () => {
    const keys = ["a/1", "a/2", "b/1", "b/2", "c/1"];
    for (const key of keys) await env.MEDIA.put(key, key);
    await env.MEDIA_BACKUP.put("a/2", "a/2");
    // Three keys a run: a/1, a/2 (already there), b/1; then b/2, c/1 and the end.
    expect(await reconcileMediaBackup(env, 3)).toEqual({ looked: 3, copied: 2 });
    expect(await (await env.MEDIA_BACKUP.get(RECONCILE_CURSOR_KEY))!.text()).toBe("b/1");
    expect(await reconcileMediaBackup(env, 3)).toEqual({ looked: 2, copied: 2 });
    expect(await (await env.MEDIA_BACKUP.get(RECONCILE_CURSOR_KEY))!.text()).toBe("");
    for (const key of keys) expect(await (await env.MEDIA_BACKUP.get(key))!.text()).toBe(key);

    // The daily cron runs it.
    await env.MEDIA.put("d/1", "d/1");
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "0 3 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await (await env.MEDIA_BACKUP.get("d/1"))?.text()).toBe("d/1");
  });

  it("never keeps an import check's pending file", async () => {
    const pending = `imports/${crypto.randomUUID()}/pending`;
    await env.MEDIA.put(pending, "{}");
    expect((await consume([event("PutObject", pending)])).explicitAcks).toHaveLength(1);
    expect(await reconcileMediaBackup(env)).toMatchObject({ copied: 0 });
    expect(await env.MEDIA_BACKUP.head(pending)).toBeNull();
  });

  it("erases what a purge erased from the backup too, once the backup's lock lets go of it (issue 43)", async () => {
    const key = await uploadedAvatarKey();
    const userId = key.split("/")[1]!;
    await consume([event("PutObject", key)]);
    // Another person's copy stays.
    const kept = await uploadedAvatarKey();
    await consume([event("PutObject", kept)]);
    await purgeUser({ db: createDb(env.DB), media: env.MEDIA, env }, userId);
    expect(await env.MEDIA.head(key)).toBeNull();

    const daily = async (daysLater: number) => {
      const ctx = createExecutionContext();
      const scheduledTime = Date.now() + daysLater * DAY_MS;
      await worker.scheduled(createScheduledController({ scheduledTime, cron: "0 3 * * *" }), env, ctx);
      await waitOnExecutionContext(ctx);
    };
    // Still locked (35 days in production): nothing is erased yet.
    await daily(BACKUP_LOCK_DAYS - 1);
    expect(await env.MEDIA_BACKUP.head(key)).not.toBeNull();
    await daily(BACKUP_LOCK_DAYS);
    expect(await env.MEDIA_BACKUP.head(key)).toBeNull();
    expect(await env.MEDIA_BACKUP.head(kept)).not.toBeNull();
    // Done, and forgotten.
    expect(await countRows("select count(*) as n from backup_erasures where target like ?", `%${userId}%`)).toBe(0);
  });
});
