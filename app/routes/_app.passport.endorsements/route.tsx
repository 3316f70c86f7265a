import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import Download from "lucide-react/icons/download";
import MessageSquareQuote from "lucide-react/icons/message-square-quote";
import { Pager } from "#app/components/pager.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { PassportSubpageHeader } from "#app/components/passport/passport-subpage-header.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { runIntent } from "#app/utils/intent.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { formatLongDate } from "#app/utils/dates.ts";
import { countReceivedEndorsements, listReceivedEndorsements } from "#db/queries/endorsements.ts";
import { PAGE_SIZES, pageRequestFrom } from "#db/queries/paging.ts";
import type { EndorsementStatus } from "#db/enums.ts";
import { hideEndorsementIntent, showEndorsementIntent } from "./answer-endorsement.server.ts";

// The endorsements a person received (issue 33, decision 072): each new one waits for 'Show' or
// 'Hide'; a shown one can be removed from the passport later, a hidden one shown after all.

export const meta: MetaFunction = () => [{ title: `Endorsements · ${PRODUCT_NAME}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const page = pageRequestFrom(new URL(request.url).searchParams, "", PAGE_SIZES.endorsements);
  const [list, counts] = await Promise.all([
    listReceivedEndorsements(context.db, viewer.id, page),
    countReceivedEndorsements(context.db, viewer.id),
  ]);
  return {
    ...list,
    ...counts,
    items: list.items.map(({ createdAt, ...row }) => ({ ...row, date: createdAt.toISOString().slice(0, 10) })),
  };
}

const INTENTS = { "show-endorsement": showEndorsementIntent, "hide-endorsement": hideEndorsementIntent };

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const fields = await request.formData();
  const back = `/passport/endorsements${new URL(request.url).search}`;
  return runIntent({ request, context }, INTENTS, { viewer, fields, back, failuresGoBack: true });
}

const STATUS_LABELS: Record<EndorsementStatus, string> = {
  pending: "Waiting for you",
  shown: "Shown on your passport",
  hidden: "Hidden",
};

export default function EndorsementsPage() {
  const { items, next, previous, total, pending } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <PassportSubpageHeader title="Endorsements">
        What people and organisations said about your achievements. Only those you show appear on your public passport.
        {pending > 0 ? ` ${pending} waiting for your answer.` : ""}
      </PassportSubpageHeader>
      {items.length === 0 ? (
        <div className="rounded-xl border border-dashed p-10 text-center">
          <MessageSquareQuote className="mx-auto size-10 text-muted-foreground" aria-hidden />
          <p className="mt-3 font-medium">No endorsements yet</p>
          <p className="text-sm text-muted-foreground">
            Colleagues can endorse your achievements from your public passport.
          </p>
        </div>
      ) : (
        <ul className="grid gap-4" aria-label="Endorsements received">
          {items.map((item) => (
            <li key={item.id} className="grid gap-3 rounded-xl border bg-card p-4 shadow-sm sm:p-5">
              <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
                <Badge variant={item.status === "pending" ? "default" : "outline"}>{STATUS_LABELS[item.status]}</Badge>
                <time dateTime={item.date}>{formatLongDate(item.date)}</time>
              </div>
              <p className="font-semibold break-words">
                {item.endorserName}
                {item.byOrganization ? " (organisation)" : ""} endorsed{" "}
                <span className="text-muted-foreground">{item.achievementTitle}</span>
              </p>
              <blockquote className="border-l-2 pl-3 text-sm break-words whitespace-pre-line">
                {item.comment}
              </blockquote>
              <Form method="post" className="flex flex-wrap items-center gap-2">
                <input type="hidden" name="endorsementId" value={item.id} />
                {item.status === "shown" ? null : (
                  <SubmitButton intent="show-endorsement" size="sm" pendingText="Showing...">
                    Show
                  </SubmitButton>
                )}
                {item.status === "hidden" ? null : (
                  <SubmitButton
                    intent="hide-endorsement"
                    size="sm"
                    variant={item.status === "pending" ? "outline" : "destructive"}
                    pendingText={item.status === "pending" ? "Hiding..." : "Removing..."}
                  >
                    {item.status === "pending" ? "Hide" : "Remove"}
                  </SubmitButton>
                )}
                <a
                  href={`/endorsements/${item.id}/download`}
                  className={buttonVariants({ variant: "ghost", size: "sm" })}
                  download
                >
                  <Download aria-hidden /> Download
                </a>
              </Form>
            </li>
          ))}
        </ul>
      )}
      {total > 0 ? (
        <Pager
          prefix=""
          label="Endorsement pages"
          shown={items.length}
          total={total}
          noun="endorsements"
          previous={previous}
          next={next}
        />
      ) : null}
    </div>
  );
}
