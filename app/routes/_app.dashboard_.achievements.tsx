import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import ArrowLeft from "lucide-react/icons/arrow-left";
import { z } from "zod";
import { Pager } from "#app/components/pager.tsx";
import { GivenAchievements } from "#app/components/dashboard/given-achievements.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { defineIntent, runIntent } from "#app/utils/intent.server.ts";
import { revokeGivenCredential } from "#app/services/credentials/revoke.server.ts";
import { requireActiveOrganizationAdmin, requireViewer } from "#app/utils/session.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";
import { listGivenAchievements } from "#db/queries/credentials.ts";
import { PAGE_SIZES, pageRequestFrom } from "#db/queries/paging.ts";

export const meta: MetaFunction = () => [{ title: `Given achievements · ${PRODUCT_NAME}` }];

const revokeSchema = z.object({ intent: z.literal("revoke"), credentialId: z.uuid() });

/** The admin of the active organisation only; anyone else goes back to the dashboard. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const active = await requireActiveOrganizationAdmin(request, context, viewer);
  const page = pageRequestFrom(new URL(request.url).searchParams, "", PAGE_SIZES.givenAchievements);
  const { items, next, previous, total } = await listGivenAchievements(context.db, active.id, page);
  // The creation time is only the cursor's.
  const rows = items.map(({ createdAt: _, ...row }) => row);
  return { organizationName: active.name, rows, next, previous, total };
}

/** An admin of the credential's issuer revokes it; the organisation comes from the credential's row. */
const revokeIntent = defineIntent<Viewer, typeof revokeSchema>({
  schema: revokeSchema,
  failureTitle: "Error",
  run: async ({ credentialId }, { context, viewer }) => ({
    toast: await revokeGivenCredential(context, viewer.id, credentialId),
  }),
});

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const url = new URL(request.url);
  return runIntent(
    { request, context },
    { revoke: revokeIntent },
    {
      viewer,
      fields: await request.formData(),
      back: `${url.pathname}${url.search}`,
    },
  );
}

export default function GivenAchievementsPage() {
  const { organizationName, rows, next, previous, total } = useLoaderData<typeof loader>();
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
        pager={
          <Pager
            prefix=""
            label="Given achievements pages"
            shown={rows.length}
            total={total}
            noun="given achievements"
            previous={previous}
            next={next}
          />
        }
      />
    </div>
  );
}
