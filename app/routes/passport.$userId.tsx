import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import type { RouteHandle } from "#app/utils/hydration.ts";
import { LogoHeader } from "#app/components/logo.tsx";
import { AvatarUploader, IntroVideoUploader } from "#app/components/media-inputs.tsx";
import { IntroVideo } from "#app/components/passport/intro-video.tsx";
import { readPublicPassport } from "#app/services/public-passport.server.ts";
import { readerOf } from "#app/utils/session.server.ts";
import { PassportNotFound, PublicPassportView } from "#app/components/passport/public-passport-view.tsx";
import { Pager } from "#app/components/pager.tsx";
import { PAGE_SIZES, pageRequestFrom } from "#db/queries/paging.ts";
import { PRINTED_ENTRIES_MAX, PRODUCT_NAME, PUBLIC_PASSPORT_INITIAL_ENTRIES } from "#app/utils/constants.ts";
import { socialMeta } from "#app/utils/social-meta.ts";

// Visitors get the page without scripts; the owner's page hydrates for the upload controls.
export const handle: RouteHandle = { hydrate: (data) => (data as { isOwner?: boolean } | undefined)?.isOwner === true };

/** A page that could not read everything (a quiet failure) says no-store: the edge cache keeps it out. */
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;
const PARTIAL = { headers: { "Cache-Control": "no-store" } };

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

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { searchParams } = new URL(request.url);
  // The first entries, or (View More, ?all=1) the full list a page at a time. The first page
  // reads enough to print a passport of up to PRINTED_ENTRIES_MAX entries whole; a longer one
  // reads its first entries only, and prints them with the print view's address.
  const showAll = searchParams.get("all") === "1";
  const page = showAll ? pageRequestFrom(searchParams, "", PAGE_SIZES.passport) : { size: PRINTED_ENTRIES_MAX };
  const found = await readPublicPassport(context, {
    userIdParam: params.userId,
    page,
    preview: showAll ? undefined : { over: PRINTED_ENTRIES_MAX, first: PUBLIC_PASSPORT_INITIAL_ENTRIES },
    origin: context.env.APP_URL ?? request.url,
    readerId: readerOf(request, context),
  });
  if (!found)
    return data({ passport: null, showAll, userId: null, isOwner: false, canonicalUrl: null }, { status: 404 });
  return data({ ...found, showAll }, found.partial ? PARTIAL : undefined);
}

export default function PublicPassport() {
  const { passport, showAll, userId, isOwner, canonicalUrl } = useLoaderData<typeof loader>();
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
            printHref={`/passport/${userId}/print`}
            endorseHref={isOwner ? undefined : (achievementId) => `/passport/${userId}/endorse/${achievementId}`}
            endorsementsHref={(achievementId) => `/passport/${userId}/endorsements/${achievementId}`}
            canonicalUrl={canonicalUrl ?? undefined}
            pager={
              showAll ? (
                <Pager
                  prefix=""
                  label="Achievement pages"
                  shown={passport.achievements.length}
                  total={passport.total}
                  noun="achievements"
                  previous={passport.previous}
                  next={passport.next}
                />
              ) : undefined
            }
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
          <PassportNotFound />
        )}
      </main>
    </div>
  );
}
