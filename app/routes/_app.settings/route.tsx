import type { ActionFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, Outlet } from "@remix-run/react";
import ArrowLeft from "lucide-react/icons/arrow-left";
import { ArchivedNotice } from "#app/components/settings/archived-notice.tsx";
import { SettingsNav } from "#app/components/settings/settings-nav.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { runIntent } from "#app/utils/intent.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { SETTINGS_PATH } from "#app/utils/settings-section.server.ts";
import { useViewer } from "#app/utils/use-viewer.ts";
import { purgeIntent } from "./purge.server.ts";
import { reactivateIntent } from "./reactivate.server.ts";

// Settings (docs/decisions/080): this layout holds the heading and the sections' navigation; each
// section is a nested route with its own loader and intents (/settings is the profile, the index
// route). An archived account sees only the notice, whose two forms this layout's action answers.

export const meta: MetaFunction = () => [{ title: `Settings · ${PRODUCT_NAME}` }];

/** What an archived account may still do: reactivate, or delete everything (archiving is the danger zone's). */
const INTENTS = { reactivate: reactivateIntent, purge: purgeIntent };

// A post to /settings itself (not the profile's `?index`): only the archived notice's forms.
export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context, { allowArchived: true });
  return runIntent({ request, context }, INTENTS, { viewer, fields: await request.formData(), back: SETTINGS_PATH });
}

export default function SettingsLayout() {
  const viewer = useViewer();
  const back = viewer.userType === "organization" ? "/dashboard" : "/passport";
  return (
    <div className="mx-auto grid max-w-2xl gap-6">
      <div className="flex items-center gap-2">
        <Link to={back} aria-label="Back" className={buttonVariants({ variant: "ghost", size: "icon" })}>
          <ArrowLeft aria-hidden />
        </Link>
        <h1 className="text-2xl font-bold tracking-tight">Settings</h1>
      </div>
      {viewer.archivedAt ? (
        <ArchivedNotice />
      ) : (
        <>
          <SettingsNav />
          <Outlet />
        </>
      )}
    </div>
  );
}
