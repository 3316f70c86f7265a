import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { OtherAddresses } from "#app/components/settings/other-addresses.tsx";
import { otherAddressesListPart } from "#app/services/other-addresses.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { runSettingsIntent } from "#app/utils/settings-section.server.ts";
import { runPart } from "#db/queries/batch-parts.ts";
import { MAX_OTHER_ADDRESSES } from "#db/queries/other-addresses.ts";
import { addOtherAddressIntent } from "./add-other-address.server.ts";
import { removeOtherAddressIntent } from "./remove-other-address.server.ts";
import { resendOtherAddressIntent } from "./resend-other-address.server.ts";

// /settings/addresses: the person's other e-mail addresses, for matching imported badges (decision 068).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const items = await runPart(context.db, otherAddressesListPart(context, viewer.id));
  return { otherAddresses: { items, max: MAX_OTHER_ADDRESSES, now: Date.now() } };
}

const INTENTS = {
  "add-other-address": addOtherAddressIntent,
  "resend-other-address": resendOtherAddressIntent,
  "remove-other-address": removeOtherAddressIntent,
};

export const action = (args: ActionFunctionArgs) => runSettingsIntent(args, INTENTS, "/settings/addresses");

export default function AddressesSection() {
  const { otherAddresses } = useLoaderData<typeof loader>();
  return <OtherAddresses state={otherAddresses} />;
}
