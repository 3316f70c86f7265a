import { Form } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Checkbox } from "#app/components/ui/checkbox.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { NativeSelect } from "#app/components/ui/native-select.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { ACHIEVEMENT_TYPE_LABELS } from "#app/utils/achievement-types.ts";
import { SOURCE_LABELS, type HistoryReview, type ReviewItem } from "#app/utils/history-import.ts";
import { useHydrated } from "#app/utils/use-hydrated.ts";

/** A new list (another file) starts with its own ticks; the same list posted back keeps them. */
export const reviewKey = (review: HistoryReview) => review.items.map((item) => item.key).join();

/** The entries read from the file, each editable and ticked or not, added together by one form. */
export function HistoryReviewList({ review }: { review: HistoryReview }) {
  const hydrated = useHydrated();
  const initial = review.items.filter((item) => item.selected).length;
  const [ticked, setTicked] = useState(initial);
  const addable = review.items.filter((item) => !item.alreadyAdded).length;
  // An entry already on the passport takes no more room (the server counts it so too).
  const tooMany = ticked - review.room;
  // A list read in place (with JavaScript) is brought into view, its heading announced.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="review-title" className="grid gap-4">
      <div className="grid gap-1">
        <h2 id="review-title" ref={heading} tabIndex={-1} className="text-xl font-semibold outline-none">
          Review {review.items.length} {review.items.length === 1 ? "entry" : "entries"}
        </h2>
        <p className="text-sm text-muted-foreground">
          Edit anything before adding it. Entries that cannot be added as they are stay unticked, with the reason.
        </p>
        {review.leftOut > 0 ? (
          <p className="text-sm text-muted-foreground">
            {`${review.leftOut} more entries were left out: import at most 500 at a time.`}
          </p>
        ) : null}
      </div>
      <Form
        method="post"
        className="grid gap-4"
        onChange={(event) => setTicked(event.currentTarget.querySelectorAll('input[name$=".selected"]:checked').length)}
      >
        <input type="hidden" name="timeZone" value={hydrated ? Intl.DateTimeFormat().resolvedOptions().timeZone : ""} />
        <ul className="grid gap-3" aria-label="Entries to import">
          {review.items.map((item, index) => (
            <ReviewEntry key={item.key} item={item} index={index} />
          ))}
        </ul>
        <div className="sticky bottom-0 flex flex-wrap items-center justify-end gap-3 border-t bg-background/95 py-3">
          {addable === 0 ? (
            <p className="text-sm text-muted-foreground">Everything in this file is already on your passport.</p>
          ) : null}
          {tooMany > 0 ? (
            <p id="history-room" role="status" className="text-sm font-medium text-destructive">
              {`A passport holds at most ${review.limit.toLocaleString("en")} imported entries, and yours has room for ` +
                `${review.room.toLocaleString("en")} more. Untick ${tooMany.toLocaleString("en")}, or delete imported ones you no longer need.`}
            </p>
          ) : null}
          <SubmitButton
            intent="add-history"
            pendingText="Adding..."
            // Without JavaScript the ticks cannot update this: the server says it again if still too many.
            disabled={addable === 0 || (hydrated && tooMany > 0)}
            aria-describedby={tooMany > 0 ? "history-room" : undefined}
          >
            {`Add ${ticked} ${ticked === 1 ? "achievement" : "achievements"}`}
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}

function ReviewEntry({ item, index }: { item: ReviewItem; index: number }) {
  const name = (field: string) => `entries[${index}].${field}`;
  const id = (field: string) => `entry-${index}-${field}`;
  const problemId = id("problem");
  return (
    <li className="rounded-lg border bg-card p-4">
      <input type="hidden" name={name("key")} value={item.key} />
      <input type="hidden" name={name("source")} value={item.source} />
      {item.alreadyAdded ? <input type="hidden" name={name("alreadyAdded")} value="true" /> : null}
      <div className="flex items-start gap-3">
        {item.alreadyAdded ? null : (
          <Checkbox
            id={id("selected")}
            name={name("selected")}
            defaultChecked={item.selected}
            className="mt-1"
            aria-describedby={item.problem ? problemId : undefined}
          />
        )}
        <div className="grid min-w-0 flex-1 gap-1">
          <label htmlFor={item.alreadyAdded ? undefined : id("selected")} className="font-medium break-words">
            <span className="sr-only">Add </span>
            {item.title || "(no title)"}
            {item.company ? <span className="font-normal text-muted-foreground"> · {item.company}</span> : null}
          </label>
          <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            <Badge variant="outline">{ACHIEVEMENT_TYPE_LABELS[item.type]}</Badge>
            <span>{item.date || "No date"}</span>
            <span>· {SOURCE_LABELS[item.source] ?? item.source}</span>
            {item.alreadyAdded ? <Badge variant="secondary">Already on your passport</Badge> : null}
          </div>
          {item.problem ? (
            <p id={problemId} className="text-sm font-medium text-destructive">
              {item.problem}
            </p>
          ) : null}
          <details open={Boolean(item.problem)} className="mt-1">
            <summary className="w-fit cursor-pointer text-sm font-medium underline-offset-4 hover:underline">
              Edit<span className="sr-only"> {item.title || "entry"}</span>
            </summary>
            <div className="mt-3 grid gap-3 sm:grid-cols-2">
              <div className="grid gap-1.5">
                <Label htmlFor={id("title")}>Title</Label>
                <Input id={id("title")} name={name("title")} defaultValue={item.title} readOnly={item.alreadyAdded} />
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor={id("company")}>Company/Organization</Label>
                <Input
                  id={id("company")}
                  name={name("company")}
                  defaultValue={item.company}
                  readOnly={item.alreadyAdded}
                />
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor={id("date")}>Date</Label>
                <Input
                  id={id("date")}
                  name={name("date")}
                  type="date"
                  defaultValue={item.date}
                  readOnly={item.alreadyAdded}
                />
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor={id("type")}>Type</Label>
                <NativeSelect id={id("type")} name={name("type")} defaultValue={item.type}>
                  {Object.entries(ACHIEVEMENT_TYPE_LABELS).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </NativeSelect>
              </div>
              <div className="grid gap-1.5 sm:col-span-2">
                <Label htmlFor={id("description")}>Description (optional)</Label>
                <Textarea
                  id={id("description")}
                  name={name("description")}
                  defaultValue={item.description}
                  rows={3}
                  readOnly={item.alreadyAdded}
                />
              </div>
            </div>
          </details>
        </div>
      </div>
    </li>
  );
}
