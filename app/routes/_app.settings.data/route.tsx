import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { Suspense } from "react";
import { HolderKeys as HolderKeysNow } from "#app/components/settings/holder-keys.tsx";
import { StorageUsage } from "#app/components/settings/storage.tsx";
import { YourData } from "#app/components/settings/your-data.tsx";
import { HOLDER_KEYS_SHOWN, ownHolderKeysPart } from "#app/services/wallet-acceptance.server.ts";
import { LoadAtOnce, lazyAfterInteraction } from "#app/utils/after-interaction.tsx";
import { requireViewer } from "#app/utils/session.server.ts";
import { runSettingsIntent } from "#app/utils/settings-section.server.ts";
import { STORAGE_QUOTA_BYTES } from "#app/utils/storage-quota.ts";
import { runParts } from "#db/queries/batch-parts.ts";
import { storageUsedPart } from "#db/queries/storage.ts";
import { forgetHolderKeyIntent } from "./forget-holder-key.server.ts";

/** The wallet keys list: rendered at once on the server, hydrated after the first interaction. */
const HolderKeys = import.meta.env.SSR
  ? HolderKeysNow
  : lazyAfterInteraction(() =>
      import("#app/components/settings/holder-keys.tsx").then((module) => ({ default: module.HolderKeys })),
    );

// /settings/data: the person's data to take away (decision 026), the wallet keys their
// credentials were issued to (decision 066) and the storage their files use (decision 074).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const [holderKeys, storageUsed] = await runParts(context.db, [
    ownHolderKeysPart(context.db, viewer.id, HOLDER_KEYS_SHOWN),
    storageUsedPart(context.db, viewer.id),
  ]);
  return { holderKeys, storage: { used: storageUsed, quota: STORAGE_QUOTA_BYTES } };
}

const INTENTS = { "forget-holder-key": forgetHolderKeyIntent };

export const action = (args: ActionFunctionArgs) => runSettingsIntent(args, INTENTS, "/settings/data");

export default function DataSection() {
  const { holderKeys, storage } = useLoaderData<typeof loader>();
  return (
    <>
      <YourData />
      <Suspense fallback={<LoadAtOnce />}>
        <HolderKeys holderKeys={holderKeys} />
      </Suspense>
      <StorageUsage {...storage} />
    </>
  );
}
