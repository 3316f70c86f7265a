import { data } from "@remix-run/cloudflare";
import { z } from "zod";
import { reviewHistory } from "#app/services/history-import.server.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { consumeUserRateLimit, RATE_LIMIT_MESSAGE } from "#app/utils/rate-limit.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({
  intent: z.literal("read-history"),
  /** The browser's time zone, for "not in the future"; absent without JavaScript. */
  timeZone: z.string().max(64).optional(),
});

/** Reads the person's LinkedIn export or JSON Resume into the review list; nothing is saved yet. */
export const readHistoryIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Import failed",
  formId: "read-history",
  async run({ timeZone }, { context, viewer, fields }) {
    if (!(await consumeUserRateLimit(context.db, viewer.id, "history-import")))
      throw new Refusal({ title: "Import failed", description: RATE_LIMIT_MESSAGE }, 429);
    const uploads = fields.getAll("file").filter((value): value is File => value instanceof File && value.size > 0);
    const files = await Promise.all(
      uploads.map(async (file) => ({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) })),
    );
    const review = await reviewHistory(context, viewer.id, files, timeZone);
    return data({ review });
  },
});
