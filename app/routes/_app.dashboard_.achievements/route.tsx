import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import ArrowLeft from "lucide-react/icons/arrow-left";
import { Pager } from "#app/components/pager.tsx";
import { GivenAchievements, GivenFilters } from "#app/components/dashboard/given-achievements.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { todayUtc } from "#app/utils/expiry.ts";
import { runIntent } from "#app/utils/intent.server.ts";
import { requireActiveOrganizationAdmin, requireViewer } from "#app/utils/session.server.ts";
import {
  EXPIRY_FILTERS,
  listGivenAchievements,
  listGivenByExpiry,
  type ExpiryFilter,
} from "#db/queries/credentials/given.ts";
import { PAGE_SIZES, pageRequestFrom } from "#db/queries/paging.ts";
import { renewIntent } from "./renew.server.ts";
import { revokeIntent } from "./revoke.server.ts";

export const meta: MetaFunction = () => [{ title: `Given achievements · ${PRODUCT_NAME}` }];

/** The admin of the active organisation only; anyone else goes back to the dashboard. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const active = await requireActiveOrganizationAdmin(request, context, viewer);
  const searchParams = new URL(request.url).searchParams;
  const page = pageRequestFrom(searchParams, "", PAGE_SIZES.givenAchievements);
  // 'Expiring in 30 days' and 'Expired' (decision 071); anything else is the whole list.
  const asked = searchParams.get("filter");
  const filter = EXPIRY_FILTERS.find((name) => name === asked) ?? null;
  const today = todayUtc();
  const { items, next, previous, total } = filter
    ? await listGivenByExpiry(context.db, active.id, filter, today, page)
    : await listGivenAchievements(context.db, active.id, page);
  // The creation time is only the cursor's.
  const rows = items.map(({ createdAt: _, ...row }) => row);
  return { organizationName: active.name, rows, next, previous, total, filter, today };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const url = new URL(request.url);
  return runIntent(
    { request, context },
    { revoke: revokeIntent, renew: renewIntent },
    {
      viewer,
      fields: await request.formData(),
      back: `${url.pathname}${url.search}`,
    },
  );
}

const NOUNS: Record<ExpiryFilter | "all", string> = {
  all: "given achievements",
  expiring: "achievements expiring in 30 days",
  expired: "expired achievements",
};

export default function GivenAchievementsPage() {
  const { organizationName, rows, next, previous, total, filter, today } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <div className="grid gap-2">
        <Link to="/dashboard" className={buttonVariants({ variant: "ghost", size: "sm", className: "w-fit" })}>
          <ArrowLeft aria-hidden /> Dashboard
        </Link>
        <h1 className="text-3xl font-bold tracking-tight">Given achievements</h1>
        <p className="break-words text-muted-foreground">{organizationName}</p>
      </div>
      <GivenAchievements
        rows={rows}
        today={today}
        filter={filter}
        filters={<GivenFilters filter={filter} />}
        pager={
          <Pager
            prefix=""
            label="Given achievements pages"
            shown={rows.length}
            total={total}
            noun={NOUNS[filter ?? "all"]}
            previous={previous}
            next={next}
          />
        }
      />
    </div>
  );
}
