import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import Printer from "lucide-react/icons/printer";
import { Suspense } from "react";
import { CopyLink as CopyLinkNow } from "#app/components/copy-link.tsx";
import { ProfileMedia as ProfileMediaNow } from "#app/components/passport/profile-media.tsx";
import { WalletOffer as WalletOfferNow } from "#app/components/passport/wallet-offer.tsx";
import { WalletAcceptance as WalletAcceptanceNow } from "#app/components/passport/wallet-acceptance.tsx";
import { Biography } from "#app/components/passport/biography.tsx";
import { ACCEPTED_PREFIX, OwnAchievements } from "#app/components/passport/own-achievements.tsx";
import { PENDING_PREFIX, PendingAchievements } from "#app/components/passport/pending-achievements.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { readAchievementUpload, requireViewerForAchievementForm } from "#app/utils/achievement-form.server.ts";
import { runIntent } from "#app/utils/intent.server.ts";
import { mediaKeys } from "#app/utils/uploads.server.ts";
import { uploadAllowance } from "#app/services/storage.server.ts";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { loadPart } from "#app/utils/form-reply.server.ts";
import { loadOwnAchievements } from "#db/queries/achievements/own.ts";
import { PAGE_SIZES, pageRequestFrom } from "#db/queries/paging.ts";
import { useViewer } from "#app/utils/use-viewer.ts";
import { LoadAtOnce, lazyAfterInteraction } from "#app/utils/after-interaction.tsx";
import { acceptIntent } from "./accept.server.ts";
import { acceptWithWalletIntent } from "./accept-with-wallet.server.ts";
import { addToWalletIntent } from "./add-to-wallet.server.ts";
import { addSelfAchievementIntent } from "./add-self-achievement.server.ts";
import { deleteImportIntent } from "./delete-import.server.ts";
import { rejectIntent } from "./reject.server.ts";
import { setVisibilityIntent } from "./set-visibility.server.ts";
import { updateBioIntent } from "./update-bio.server.ts";
import { loadWalletAcceptance } from "./wallet-acceptance.server.ts";
import { loadWalletOffer } from "./wallet-offer.server.ts";

export const meta: MetaFunction = () => [{ title: `My Passport · ${PRODUCT_NAME}` }];

const EMPTY_LIST = { items: [], next: null, previous: null, total: 0 };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const url = new URL(request.url);
  const origin = context.env.APP_URL ?? url.origin;
  const pages = {
    pending: pageRequestFrom(url.searchParams, PENDING_PREFIX, PAGE_SIZES.ownPendingAchievements),
    accepted: pageRequestFrom(url.searchParams, ACCEPTED_PREFIX, PAGE_SIZES.passport),
  };
  const [[achievements, toast], wallet, acceptance] = await Promise.all([
    loadPart(context, "Error loading data", () => loadOwnAchievements(context.db, viewer.id, pages), {
      pending: EMPTY_LIST,
      accepted: EMPTY_LIST,
    }),
    loadWalletOffer(context.db, viewer.id, url, origin),
    loadWalletAcceptance(context.db, viewer.id, url, origin),
  ]);
  return { achievements, acceptance, origin, shareUrl: `${origin}/passport/${viewer.id}`, toast, wallet };
}

/** Every form the page posts, by its `intent`. */
const INTENTS = {
  "add-self-achievement": addSelfAchievementIntent,
  "update-bio": updateBioIntent,
  accept: acceptIntent,
  "accept-with-wallet": acceptWithWalletIntent,
  "add-to-wallet": addToWalletIntent,
  "delete-import": deleteImportIntent,
  reject: rejectIntent,
  "set-visibility": setVisibilityIntent,
};

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewerForAchievementForm(request, context);
  // A self achievement's media is the person's own: their upload rate and storage quota hold.
  const allowance = uploadAllowance(context, viewer.id, { counted: true });
  const upload = await readAchievementUpload(request, context, mediaKeys.self(viewer.id), allowance);
  return runIntent({ request, context }, INTENTS, { viewer, fields: upload.fields, upload, back: "/passport" });
}

export default function OwnPassport() {
  const { achievements, acceptance, origin, shareUrl, wallet } = useLoaderData<typeof loader>();
  const viewer = useViewer();
  return (
    <div className="mx-auto grid max-w-3xl gap-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold tracking-tight break-words">{viewer.fullName}</h1>
        <div className="flex flex-wrap gap-2">
          <Link to={`/passport/${viewer.id}`} className={buttonVariants({ variant: "outline", size: "sm" })}>
            View public passport
          </Link>
          {/* The print view with every achievement; with JavaScript it opens the print dialog. */}
          <Link
            to={`/passport/${viewer.id}/print#print`}
            reloadDocument
            className={buttonVariants({ variant: "outline", size: "sm" })}
          >
            <Printer aria-hidden /> Print or save as PDF
          </Link>
        </div>
      </div>

      {wallet ? (
        <Suspense fallback={<LoadAtOnce />}>
          <WalletOffer offer={wallet} />
        </Suspense>
      ) : null}

      {acceptance ? (
        <Suspense fallback={<LoadAtOnce />}>
          <WalletAcceptance acceptance={acceptance} />
        </Suspense>
      ) : null}

      <Card>
        <CardHeader>
          <CardTitle as="h2">Share your passport</CardTitle>
          <CardDescription>Anyone with this link sees your accepted achievements.</CardDescription>
        </CardHeader>
        <CardContent>
          <Suspense fallback={<LoadAtOnce />}>
            <CopyLink
              url={shareUrl}
              label="Public passport link"
              toast={{ title: "Link copied!", description: "Share it with recruiters and employers." }}
            />
          </Suspense>
        </CardContent>
      </Card>

      <Suspense fallback={<LoadAtOnce />}>
        <ProfileMedia viewer={viewer} />
      </Suspense>

      <Biography bio={viewer.bio} />

      <PendingAchievements pending={achievements.pending} />

      <OwnAchievements accepted={achievements.accepted} origin={origin} shareUrl={shareUrl} />
    </div>
  );
}

/** The share link's Copy button: the link is selectable as rendered; the button hydrates on first interaction. */
const CopyLink = import.meta.env.SSR
  ? CopyLinkNow
  : lazyAfterInteraction(() =>
      import("#app/components/copy-link.tsx").then((module) => ({ default: module.CopyLink })),
    );

/** 'Add to wallet's QR code and link: rendered on the server, its chunk loaded after the first interaction. */
const WalletOffer = import.meta.env.SSR
  ? WalletOfferNow
  : lazyAfterInteraction(() =>
      import("#app/components/passport/wallet-offer.tsx").then((module) => ({ default: module.WalletOffer })),
    );

/** 'Accept with my wallet's QR code and link: rendered on the server, its chunk loaded after the first interaction. */
const WalletAcceptance = import.meta.env.SSR
  ? WalletAcceptanceNow
  : lazyAfterInteraction(() =>
      import("#app/components/passport/wallet-acceptance.tsx").then((module) => ({
        default: module.WalletAcceptance,
      })),
    );

/** The picture and video uploaders: rendered on the server, hydrated after the first interaction (decision 049). */
const ProfileMedia = import.meta.env.SSR
  ? ProfileMediaNow
  : lazyAfterInteraction(() =>
      import("#app/components/passport/profile-media.tsx").then((module) => ({ default: module.ProfileMedia })),
    );
