import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import ExternalLink from "lucide-react/icons/external-link";
import Eye from "lucide-react/icons/eye";
import EyeOff from "lucide-react/icons/eye-off";
import Plus from "lucide-react/icons/plus";
import Printer from "lucide-react/icons/printer";
import { Suspense } from "react";
import { AchievementDialog } from "#app/components/achievements/achievement-dialog.tsx";
import { CopyLink as CopyLinkNow } from "#app/components/copy-link.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { AchievementCard } from "#app/components/passport/achievement-card.tsx";
import { ProfileMedia as ProfileMediaNow } from "#app/components/passport/profile-media.tsx";
import { WalletOffer as WalletOfferNow } from "#app/components/passport/wallet-offer.tsx";
import { WalletAcceptance as WalletAcceptanceNow } from "#app/components/passport/wallet-acceptance.tsx";
import { CredentialLinks as CredentialLinksNow } from "#app/components/passport/credential-links.tsx";
import { ImportActions as ImportActionsNow } from "#app/components/passport/import-actions.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { readAchievementUpload, requireViewerForAchievementForm } from "#app/utils/achievement-form.server.ts";
import { runIntent } from "#app/utils/intent.server.ts";
import { mediaKeys } from "#app/utils/uploads.server.ts";
import { uploadAllowance } from "#app/services/storage.server.ts";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { linkedInAddToProfileUrl } from "#app/utils/linkedin.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { loadPart } from "#app/utils/form-reply.server.ts";
import { Pager } from "#app/components/pager.tsx";
import { loadOwnAchievements } from "#db/queries/achievements/own.ts";
import { PAGE_SIZES, pageRequestFrom } from "#db/queries/paging.ts";
import { useViewer } from "#app/utils/use-viewer.ts";
import { LoadAtOnce, lazyAfterInteraction } from "#app/utils/after-interaction.tsx";
import { Biography } from "./biography.tsx";
import { PENDING_PREFIX, PendingAchievements } from "./pending-achievements.tsx";
import { acceptIntent } from "./accept.server.ts";
import { acceptWithWalletIntent, loadWalletAcceptance } from "./accept-with-wallet.server.ts";
import { addToWalletIntent, loadWalletOffer } from "./add-to-wallet.server.ts";
import { addSelfAchievementIntent } from "./add-self-achievement.server.ts";
import { deleteImportIntent } from "./delete-import.server.ts";
import { rejectIntent } from "./reject.server.ts";
import { setVisibilityIntent } from "./set-visibility.server.ts";
import { updateBioIntent } from "./update-bio.server.ts";

export const meta: MetaFunction = () => [{ title: `My Passport · ${PRODUCT_NAME}` }];

/** The achievements list's query parameters (`achievements.before`): it keeps its place beside the pending list. */
const ACCEPTED_PREFIX = "achievements.";
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

      <section aria-labelledby="achievements-title" className="grid gap-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="achievements-title" className="text-xl font-semibold">
            Achievements
          </h2>
          <div className="flex flex-wrap gap-2">
            <Link to="/passport/import" className={buttonVariants({ variant: "outline" })}>
              Import
            </Link>
            <Link to="/passport/import-history" className={buttonVariants({ variant: "outline" })}>
              Import history
            </Link>
            <Link to="/passport/endorsements" className={buttonVariants({ variant: "outline" })}>
              Endorsements
            </Link>
            <AchievementDialog
              kind="self"
              id="self"
              trigger={
                <>
                  <Plus aria-hidden /> Add Self Achievement
                </>
              }
            />
          </div>
        </div>
        {achievements.accepted.total === 0 ? (
          <div className="rounded-xl border border-dashed p-10 text-center">
            <p className="font-medium">No achievements yet</p>
            <p className="text-sm text-muted-foreground">Start adding your professional story</p>
            <p className="mt-3 text-sm">
              <Link to="/passport/import-history" className="font-medium underline underline-offset-4">
                Import your LinkedIn export or a JSON Resume
              </Link>
            </p>
          </div>
        ) : (
          <ul className="grid gap-4" aria-label="Your achievements">
            {achievements.accepted.items.map((achievement, index) => (
              <li key={achievement.id} className="grid gap-2">
                <div className={achievement.isVisible ? undefined : "opacity-60"}>
                  <AchievementCard achievement={achievement} priority={index === 0} />
                </div>
                <Form method="post" className="flex flex-wrap items-center justify-end gap-2">
                  {achievement.isVisible ? null : <Badge variant="outline">Hidden from your public passport</Badge>}
                  {achievement.credentialId ? (
                    <Suspense fallback={<LoadAtOnce />}>
                      <CredentialLinks id={achievement.credentialId} title={achievement.title} />
                    </Suspense>
                  ) : null}
                  {/* LinkedIn's add-to-profile link adds certifications: a membership is not one. */}
                  {achievement.isSelf || achievement.isMembership ? null : (
                    <a
                      href={linkedInAddToProfileUrl({
                        title: achievement.title,
                        organizationName: achievement.organizationName ?? "",
                        date: achievement.date,
                        // The credential when there is one: it proves itself; else the passport.
                        url: achievement.credentialId ? `${origin}/credentials/${achievement.credentialId}` : shareUrl,
                      })}
                      target="_blank"
                      rel="noopener noreferrer"
                      aria-label={`Add to LinkedIn: ${achievement.title}`}
                      className={buttonVariants({ size: "sm", variant: "ghost" })}
                    >
                      <ExternalLink aria-hidden /> Add to LinkedIn
                    </a>
                  )}
                  <input type="hidden" name="achievementId" value={achievement.id} />
                  <input type="hidden" name="visible" value={achievement.isVisible ? "false" : "true"} />
                  <SubmitButton
                    intent="set-visibility"
                    size="sm"
                    variant="ghost"
                    aria-label={`${achievement.isVisible ? "Hide" : "Show"} ${achievement.title}`}
                  >
                    {achievement.isVisible ? <EyeOff aria-hidden /> : <Eye aria-hidden />}
                    {achievement.isVisible ? "Hide" : "Show"}
                  </SubmitButton>
                </Form>
                {achievement.importStatus ? (
                  <Suspense fallback={<LoadAtOnce />}>
                    <ImportActions achievementId={achievement.id} title={achievement.title} />
                  </Suspense>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {achievements.accepted.total > 0 ? (
          <Pager
            prefix={ACCEPTED_PREFIX}
            label="Your achievements pages"
            shown={achievements.accepted.items.length}
            total={achievements.accepted.total}
            noun="achievements"
            previous={achievements.accepted.previous}
            next={achievements.accepted.next}
          />
        ) : null}
      </section>
    </div>
  );
}

/** An achievement's credential actions: rendered on the server, hydrated after the first interaction. */
const CredentialLinks = import.meta.env.SSR
  ? CredentialLinksNow
  : lazyAfterInteraction(() =>
      import("#app/components/passport/credential-links.tsx").then((module) => ({ default: module.CredentialLinks })),
    );

/** The share link's Copy button: the link is selectable as rendered; the button hydrates on first interaction. */
const CopyLink = import.meta.env.SSR
  ? CopyLinkNow
  : lazyAfterInteraction(() =>
      import("#app/components/copy-link.tsx").then((module) => ({ default: module.CopyLink })),
    );

/** An imported credential's original file and deletion: rendered on the server, hydrated on first interaction. */
const ImportActions = import.meta.env.SSR
  ? ImportActionsNow
  : lazyAfterInteraction(() =>
      import("#app/components/passport/import-actions.tsx").then((module) => ({ default: module.ImportActions })),
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
