import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData } from "@remix-run/react";
import ArrowLeft from "lucide-react/icons/arrow-left";
import { ChooseHistoryFile } from "#app/components/passport/history-file.tsx";
import { HistoryReviewList, reviewKey } from "#app/components/passport/history-review.tsx";
import type { HistoryReview } from "#app/utils/history-import.ts";
import { readBoundedForm } from "#app/utils/bounded-form.server.ts";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { replyFailure } from "#app/utils/form-reply.server.ts";
import type { FormReply } from "#app/utils/form-reply.ts";
import { HISTORY_UPLOAD_MAX_BYTES } from "#app/utils/history-import.ts";
import { runIntent } from "#app/utils/intent.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { addHistoryIntent } from "./add-history.server.ts";
import { readHistoryIntent } from "./read-history.server.ts";

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

export default function ImportHistory() {
  const answer = useActionData<typeof action>() as { review?: HistoryReview } | FormReply | undefined;
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
      <ChooseHistoryFile errors={failure?.result?.error?.file ?? undefined} formErrors={failure?.result?.error?.[""]} />
      {review ? <HistoryReviewList key={reviewKey(review)} review={review} /> : null}
    </div>
  );
}
