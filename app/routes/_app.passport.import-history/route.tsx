import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData } from "@remix-run/react";
import ArrowLeft from "lucide-react/icons/arrow-left";
import FileUp from "lucide-react/icons/file-up";
import { useEffect, useRef, useState } from "react";
import { FieldError, FormError } from "#app/components/form-messages.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { Checkbox } from "#app/components/ui/checkbox.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { NativeSelect } from "#app/components/ui/native-select.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { readBoundedForm } from "#app/utils/bounded-form.server.ts";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { replyFailure } from "#app/utils/form-reply.server.ts";
import type { FormReply } from "#app/utils/form-reply.ts";
import { HISTORY_UPLOAD_MAX_BYTES, SOURCE_LABELS, type ReviewItem } from "#app/utils/history-import.ts";
import { runIntent } from "#app/utils/intent.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { useHydrated } from "#app/utils/use-hydrated.ts";
import { addHistoryIntent } from "./add-history.server.ts";
import { readHistoryIntent } from "./read-history.server.ts";
import { ACHIEVEMENT_TYPE_LABELS } from "#app/utils/achievement-types.ts";

// /passport/import-history (issue 32, decision 067): a LinkedIn export or a JSON Resume becomes
// a review list, server-rendered so it works without JavaScript, then the person's own
// achievements.

export const meta: MetaFunction = () => [{ title: `Import history · ${PRODUCT_NAME}` }];

/** Room for the form's other fields and multipart framing beside the file itself. */
const FORM_SLACK_BYTES = 64 * 1024;
const TOO_LARGE = { title: "File too large", description: "Please choose a file smaller than 5 MB." };

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireViewer(request, context);
  return null;
}

const INTENTS = { "read-history": readHistoryIntent, "add-history": addHistoryIntent };

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const fields = await readBoundedForm(request, HISTORY_UPLOAD_MAX_BYTES + FORM_SLACK_BYTES);
  // The body's cap leaves room for the other fields; the files themselves weigh 5 MB at most.
  const fileBytes = fields?.getAll("file").reduce((sum, value) => sum + (value instanceof File ? value.size : 0), 0);
  if (!fields || (fileBytes ?? 0) > HISTORY_UPLOAD_MAX_BYTES)
    return replyFailure({
      formId: "read-history",
      toast: TOO_LARGE,
      fieldErrors: { file: [TOO_LARGE.description] },
      status: 413,
    });
  return runIntent({ request, context }, INTENTS, { viewer, fields, back: "/passport/import-history" });
}

type Review = { items: ReviewItem[]; leftOut: number };

export default function ImportHistory() {
  const answer = useActionData<typeof action>() as { review?: Review } | FormReply | undefined;
  const review = answer && "review" in answer ? answer.review : undefined;
  const failure = answer && "formId" in answer && answer.formId === "read-history" ? answer : undefined;
  return (
    <div className="mx-auto grid max-w-3xl gap-8">
      <div className="grid gap-2">
        <Link to="/passport" className="flex w-fit items-center gap-1 text-sm text-muted-foreground hover:underline">
          <ArrowLeft aria-hidden className="size-4" /> Back to my passport
        </Link>
        <h1 className="text-3xl font-bold tracking-tight">Import history</h1>
        <p className="text-muted-foreground">
          Start your passport from the career you already have: every entry is shown to you first, and only what you
          tick is added, as your own achievements.
        </p>
      </div>
      <ChooseFile errors={failure?.result?.error?.file ?? undefined} formErrors={failure?.result?.error?.[""]} />
      {review ? <ReviewList key={reviewKey(review)} review={review} /> : null}
    </div>
  );
}

/** A new list (another file) starts with its own ticks; the same list posted back keeps them. */
const reviewKey = (review: Review) => review.items.map((item) => item.key).join();

function ChooseFile({ errors, formErrors }: { errors?: string[]; formErrors?: string[] | null }) {
  const hydrated = useHydrated();
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Choose a file</CardTitle>
        <CardDescription>
          Your LinkedIn data export (on LinkedIn: Settings &amp; Privacy, Data privacy, Get a copy of your data): the
          ZIP LinkedIn e-mails you, or its Positions.csv, Certifications.csv, Honors.csv, Courses.csv and Education.csv.
          Or a JSON Resume (resume.json). Up to 5 MB.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" encType="multipart/form-data" className="grid gap-3">
          <input
            type="hidden"
            name="timeZone"
            value={hydrated ? Intl.DateTimeFormat().resolvedOptions().timeZone : ""}
          />
          <div className="grid gap-2">
            <Label htmlFor="history-file">LinkedIn export or JSON Resume</Label>
            <Input
              id="history-file"
              name="file"
              type="file"
              multiple
              required
              accept=".zip,.csv,.json,application/zip,text/csv,application/json"
              aria-invalid={errors?.length ? true : undefined}
              aria-describedby="history-file-error"
            />
            <FieldError id="history-file-error" errors={errors} />
          </div>
          <FormError errors={formErrors ?? undefined} />
          <div>
            <SubmitButton intent="read-history" pendingText="Reading...">
              <FileUp aria-hidden /> Read file
            </SubmitButton>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}

function ReviewList({ review }: { review: Review }) {
  const hydrated = useHydrated();
  const initial = review.items.filter((item) => item.selected).length;
  const [ticked, setTicked] = useState(initial);
  const addable = review.items.filter((item) => !item.alreadyAdded).length;
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
          <SubmitButton intent="add-history" pendingText="Adding..." disabled={addable === 0}>
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
