import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import Printer from "lucide-react/icons/printer";
import type { RouteHandle } from "#app/utils/hydration.ts";
import { LogoHeader } from "#app/components/logo.tsx";
import { PassportNotFound, PublicPassportView } from "#app/components/passport/public-passport-view.tsx";
import { readPublicPassport } from "#app/services/public-passport.server.ts";
import { readerOf } from "#app/utils/session.server.ts";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { usePrintOnArrival } from "#app/utils/use-print-on-arrival.ts";
import { PAGE_SIZES } from "#db/queries/paging.ts";

// GET /passport/{userId}/print: every shown achievement on one page, for paper and "Save as PDF"
// (decision 033). The first page stays small for the edge cache; this one is asked for.
// Visitors get it without scripts; the owner's page hydrates to open the print dialog (#print).
export const handle: RouteHandle = { hydrate: (data) => (data as { isOwner?: boolean } | undefined)?.isOwner === true };

/** A page that could not read everything (a quiet failure) says no-store: the edge cache keeps it out. */
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;
const PARTIAL = { headers: { "Cache-Control": "no-store" } };

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const name = data?.passport?.profile.fullName || "Professional";
  // The passport itself is the page to index and preview; this is its printable copy.
  return [
    { title: data?.passport ? `${name} · ${PRODUCT_NAME}` : `Passport not found · ${PRODUCT_NAME}` },
    { name: "robots", content: "noindex" },
  ];
};

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  // A GET's query string never reaches here: the edge cache's middleware renders the page for
  // its own address (passportPage), so no variant can make every view a fresh full render.
  const found = await readPublicPassport(context, {
    userIdParam: params.userId,
    page: { size: PAGE_SIZES.printChunk },
    origin: context.env.APP_URL ?? request.url,
    readerId: readerOf(request, context),
    everything: true,
  });
  if (!found) return data({ passport: null, userId: null, isOwner: false, canonicalUrl: null }, { status: 404 });
  return data(found, found.partial ? PARTIAL : undefined);
}

export default function PrintablePassport() {
  const { passport, userId, canonicalUrl } = useLoaderData<typeof loader>();
  usePrintOnArrival();
  return (
    <div className="flex min-h-dvh flex-col">
      <LogoHeader />
      <main className="flex-1 px-4 py-10 print:py-0">
        {passport ? (
          <>
            <div className="mx-auto mb-8 flex max-w-3xl flex-wrap items-center justify-between gap-3 rounded-lg border bg-muted/40 p-4 text-sm print:hidden">
              <p className="flex items-center gap-2">
                <Printer aria-hidden className="size-4 shrink-0" />
                Every achievement on one page: print it, or choose &ldquo;Save as PDF&rdquo; in your browser&apos;s
                print dialog (Ctrl+P, or ⌘P on a Mac).
              </p>
              <Link to={`/passport/${userId}`} className="font-medium underline underline-offset-4">
                Back to the passport
              </Link>
            </div>
            <PublicPassportView
              profile={passport.profile}
              achievements={passport.achievements}
              total={passport.total}
              showAll
              showAllHref={`/passport/${userId}?all=1`}
              canonicalUrl={canonicalUrl ?? undefined}
              variant="print"
            />
          </>
        ) : (
          <PassportNotFound />
        )}
      </main>
    </div>
  );
}
