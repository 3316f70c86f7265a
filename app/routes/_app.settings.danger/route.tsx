import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { DangerZone } from "#app/components/settings/danger-zone.tsx";
import { requireViewer } from "#app/utils/session.server.ts";
import { runSettingsIntent } from "#app/utils/settings-section.server.ts";
import { archiveIntent } from "./archive.server.ts";

// /settings/danger: archiving the account (decision 014). Once archived, the account reaches only
// /settings, whose notice offers reactivating or deleting everything.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireViewer(request, context);
  return null;
}

const INTENTS = { archive: archiveIntent };

export const action = (args: ActionFunctionArgs) => runSettingsIntent(args, INTENTS, "/settings/danger");

export default function DangerSection() {
  return <DangerZone />;
}
