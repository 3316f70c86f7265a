import { data } from "@remix-run/cloudflare";
import { z } from "zod";
import { addHistory, checkEntry } from "#app/services/history-import.server.ts";
import { HISTORY_KEY_PATTERN, HISTORY_MAX_ITEMS, type ReviewItem } from "#app/utils/history-import.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";
import { ACHIEVEMENT_TYPES } from "#db/enums.ts";

// Each field as posted; the rules of a self achievement are checked on the ticked entries only.
const text = (max: number) =>
  z
    .string()
    .max(max)
    .optional()
    .transform((value) => value ?? "");

const schema = z.object({
  intent: z.literal("add-history"),
  timeZone: z.string().max(64).optional(),
  entries: z
    .array(
      z.object({
        key: z.string().regex(HISTORY_KEY_PATTERN),
        source: text(40),
        selected: z.literal("on").optional(),
        alreadyAdded: z.literal("true").optional(),
        // Room past the rules' limits, so an entry too long is answered with the rule's message.
        title: text(5000),
        company: text(5000),
        description: text(20000),
        date: text(20),
        type: z.enum(ACHIEVEMENT_TYPES).catch("award"),
      }),
    )
    .max(HISTORY_MAX_ITEMS)
    .optional()
    .transform((entries) => entries ?? []),
});

/**
 * Adds the ticked entries of the review list as the person's own achievements, in one batch.
 * When a ticked entry breaks a rule, nothing is added: the list comes back as it was posted,
 * with the reason beside each such entry.
 */
export const addHistoryIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Error adding achievements",
  formId: "add-history",
  async run({ entries, timeZone }, { context, viewer }) {
    const checked = entries.map(({ selected, alreadyAdded, ...posted }) => {
      const chosen = selected === "on" && alreadyAdded !== "true";
      const { entry, problem } = chosen ? checkEntry(posted, timeZone) : { entry: null, problem: null };
      return { posted, chosen, alreadyAdded: alreadyAdded === "true", entry, problem };
    });
    const chosen = checked.flatMap((item) => (item.entry ? [item.entry] : []));
    const refused = checked.some((item) => item.problem);
    if (chosen.length === 0 || refused) {
      // The list as it was posted, each refused entry with its reason.
      const items: ReviewItem[] = checked.map(({ posted, chosen: selected, alreadyAdded, problem }) => ({
        ...posted,
        selected,
        alreadyAdded,
        problem,
      }));
      const toast = refused
        ? { title: "Some entries cannot be added", description: "Fix or untick the entries marked below." }
        : { title: "Nothing to add", description: "Tick at least one entry to add." };
      return data(
        { review: { items, leftOut: 0 }, toast: { ...toast, variant: "destructive" as const } },
        { status: 400 },
      );
    }
    const { toast } = await addHistory(context, viewer.id, chosen);
    return { toast, redirectTo: "/passport" };
  },
});
