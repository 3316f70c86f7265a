import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import ArrowLeft from "lucide-react/icons/arrow-left";
import type { RouteHandle } from "#app/utils/hydration.ts";
import { LogoHeader } from "#app/components/logo.tsx";
import { EndorsementList, endorsedByLabel } from "#app/components/passport/card-endorsements.tsx";
import { PassportNotFound } from "#app/components/passport/public-passport-view.tsx";
import { Pager } from "#app/components/pager.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { readEntryEndorsements } from "#app/services/public-passport.server.ts";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { readerOf } from "#app/utils/session.server.ts";
import { PAGE_SIZES, pageRequestFrom } from "#db/queries/paging.ts";

// GET /passport/{userId}/endorsements/{achievementId}: every endorsement an entry of a passport
// shows, a page at a time, oldest first (decision 079). The passport's card carries the first few
// and links here. Public like the passport (its owner may read a private one), without scripts.
export const handle: RouteHandle = { hydrate: () => false };

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  // An entry not on a passport its reader may see says what an unknown passport says.
  if (!data?.found) return [{ title: `Passport not found · ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];
  const { entry } = data.found;
  return [
    { title: `Endorsements of ${entry.title} · ${PRODUCT_NAME}` },
    ...(entry.searchIndexing ? [] : [{ name: "robots", content: "noindex" }]),
  ];
};

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { searchParams } = new URL(request.url);
  const found = await readEntryEndorsements(context, {
    userIdParam: params.userId,
    achievementIdParam: params.achievementId,
    page: pageRequestFrom(searchParams, "", PAGE_SIZES.entryEndorsements),
    readerId: readerOf(request, context),
  });
  return data({ found }, found ? undefined : { status: 404 });
}

export default function EntryEndorsements() {
  const { found } = useLoaderData<typeof loader>();
  return (
    <div className="flex min-h-dvh flex-col">
      <LogoHeader />
      <main className="flex-1 px-4 py-10">
        {found ? (
          <div className="mx-auto grid w-full max-w-2xl gap-6">
            <div className="grid gap-2">
              <Link
                to={`/passport/${found.userId}`}
                reloadDocument
                className={buttonVariants({ variant: "ghost", size: "sm", className: "w-fit" })}
              >
                <ArrowLeft aria-hidden /> {found.entry.ownerName || "Professional"}&apos;s passport
              </Link>
              <h1 className="text-3xl font-bold tracking-tight break-words">{endorsedByLabel(found.total)}</h1>
              <p className="break-words text-muted-foreground">{found.entry.title}</p>
            </div>
            {found.endorsements.length === 0 ? (
              <p className="rounded-lg border border-dashed p-6 text-center text-muted-foreground">
                No endorsements yet
              </p>
            ) : (
              <section aria-label="Endorsements" className="rounded-xl border bg-card p-6 shadow-sm">
                <EndorsementList endorsements={found.endorsements} />
              </section>
            )}
            <Pager
              prefix=""
              label="Endorsement pages"
              shown={found.endorsements.length}
              total={found.total}
              noun="endorsements"
              previous={found.previous}
              next={found.next}
            />
            {found.isOwner ? null : (
              <a
                href={`/passport/${found.userId}/endorse/${found.achievementId}`}
                rel="nofollow"
                aria-label={`Endorse ${found.entry.title}`}
                className={buttonVariants({ variant: "outline", className: "w-fit" })}
              >
                Endorse
              </a>
            )}
          </div>
        ) : (
          <PassportNotFound />
        )}
      </main>
    </div>
  );
}
