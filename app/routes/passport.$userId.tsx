import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { z } from "zod";
import type { RouteHandle } from "#app/utils/hydration.ts";
import { LogoHeader } from "#app/components/logo.tsx";
import { AvatarUploader, IntroVideoUploader } from "#app/components/media-inputs.tsx";
import { IntroVideo } from "#app/components/passport/intro-video.tsx";
import { responsiveSrcSet } from "#app/utils/media.server.ts";
import { hasSessionCookie } from "#app/utils/session.server.ts";
import { PublicPassportView } from "#app/components/passport/public-passport-view.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { MAX_LISTED_ACHIEVEMENTS, loadPassport } from "#db/queries/achievements.ts";
import { PRODUCT_NAME, PUBLIC_PASSPORT_INITIAL_ENTRIES } from "#app/utils/constants.ts";
import { socialMeta } from "#app/utils/social-meta.ts";

// Visitors get the page without scripts; the owner's page hydrates for the upload controls.
export const handle: RouteHandle = { hydrate: (data) => (data as { isOwner?: boolean } | undefined)?.isOwner === true };

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  // A passport switched off, archived or missing has no preview and is never indexed.
  if (!data?.passport)
    return [{ title: `Passport not found · ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];
  const { profile, total } = data.passport;
  const name = profile.fullName || "Professional";
  const description =
    profile.bio ??
    `${name}'s career passport: ${total} ${total === 1 ? "achievement" : "achievements"}, recognised by the organisations they work with.`;
  return [
    { title: `${name} · ${PRODUCT_NAME}` },
    { name: "description", content: description },
    ...(profile.searchIndexing ? [] : [{ name: "robots", content: "noindex" }]),
    ...socialMeta({
      type: "profile",
      title: `${name} · ${PRODUCT_NAME}`,
      description,
      url: data.canonicalUrl,
      image: `${data.canonicalUrl}/card.png`,
      imageAlt: `${name}'s career passport`,
    }),
  ];
};

const userIdSchema = z.uuid();

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const showAll = new URL(request.url).searchParams.get("all") === "1";
  const userId = userIdSchema.safeParse(params.userId);
  const passport = userId.success
    ? await loadPassport(context.db, userId.data, showAll ? MAX_LISTED_ACHIEVEMENTS : PUBLIC_PASSPORT_INITIAL_ENTRIES)
    : null;
  // Only a visitor with a session can be the owner: no session lookup for everyone else.
  const isOwner = Boolean(passport && hasSessionCookie(request) && (await context.getUser())?.id === userId.data);
  // Archived accounts are never public; a private passport is visible to its owner only.
  const visible = passport && !passport.profile.deletedAt && (passport.profile.isPublic || isOwner);
  if (!visible)
    return data({ passport: null, showAll, userId: null, isOwner: false, canonicalUrl: null }, { status: 404 });
  // The page's one address for previews and search engines (the first page, whatever was asked).
  const canonicalUrl = new URL(`/passport/${userId.data}`, context.env.APP_URL ?? request.url).href;
  const achievements = passport.achievements.map((achievement) => ({
    ...achievement,
    imageSrcSet: responsiveSrcSet(achievement.imageUrl, context.env.IMAGE_RESIZING),
  }));
  return { passport: { ...passport, achievements }, showAll, userId: userId.data as string, isOwner, canonicalUrl };
}

export default function PublicPassport() {
  const { passport, showAll, userId, isOwner, canonicalUrl } = useLoaderData<typeof loader>();
  usePrintOnArrival();
  return (
    <div className="flex min-h-dvh flex-col">
      <LogoHeader />
      <main className="flex-1 px-4 py-10">
        {passport ? (
          <PublicPassportView
            profile={passport.profile}
            achievements={passport.achievements}
            total={passport.total}
            showAll={showAll}
            showAllHref={`/passport/${userId}?all=1`}
            canonicalUrl={canonicalUrl ?? undefined}
            avatarDialog={
              isOwner ? (
                <div className="grid gap-6">
                  <AvatarUploader redirectTo={`/passport/${userId}`} />
                  <IntroVideo
                    url={passport.profile.introVideoUrl}
                    thumbnailUrl={passport.profile.introVideoThumbnailUrl}
                  />
                  <IntroVideoUploader
                    introVideoUrl={passport.profile.introVideoUrl}
                    redirectTo={`/passport/${userId}`}
                  />
                </div>
              ) : undefined
            }
          />
        ) : (
          <div className="mx-auto max-w-md py-16 text-center">
            <h1 className="text-2xl font-bold tracking-tight">Passport not found</h1>
            <p className="mt-2 text-muted-foreground">This passport doesn&apos;t exist or is not public.</p>
            <Button asChild className="mt-6">
              <Link to="/">Go Home</Link>
            </Button>
          </div>
        )}
      </main>
    </div>
  );
}

/**
 * The own passport's "Print or save as PDF" opens this page at #print: once it has loaded (only
 * the owner's page runs scripts), the print dialog opens, and the address loses the marker.
 */
function usePrintOnArrival() {
  useEffect(() => {
    if (window.location.hash !== "#print") return;
    history.replaceState(null, "", window.location.pathname + window.location.search);
    window.print();
  }, []);
}
