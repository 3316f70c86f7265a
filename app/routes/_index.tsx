import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import ArrowRight from "lucide-react/icons/arrow-right";
import Building2 from "lucide-react/icons/building-complex";
import FileX2 from "lucide-react/icons/file-x-corner";
import History from "lucide-react/icons/rotate-ccw-clock";
import ShieldCheck from "lucide-react/icons/shield-check";
import { demoAchievements, demoProfile } from "#app/components/passport/demo-passport.ts";
import { PublicPassportView } from "#app/components/passport/public-passport-view.tsx";
import { SiteFooter } from "#app/components/site-footer.tsx";
import { SiteHeader } from "#app/components/site-header.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import type { RouteHandle } from "#app/utils/hydration.ts";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { socialMeta } from "#app/utils/social-meta.ts";
import { findSignedIn, hasSessionCookie } from "#app/utils/session.server.ts";

const LANDING_TITLE = `${PRODUCT_NAME} · Your lifelong record of achievements`;
const LANDING_DESCRIPTION =
  "Replace the paper CV with a lifelong passport of your awards, training and milestones, recognised by the organisations you work with.";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: LANDING_TITLE },
  { name: "description", content: LANDING_DESCRIPTION },
  ...(data
    ? socialMeta({
        title: LANDING_TITLE,
        description: LANDING_DESCRIPTION,
        url: data.canonicalUrl,
        image: new URL("/card.png", data.canonicalUrl).href,
        imageAlt: `${PRODUCT_NAME}: your lifelong record of achievements`,
      })
    : []),
];

// Visitors get the page without scripts; signed-in people hydrate it for the notification bell.
export const handle: RouteHandle = { hydrate: (data) => (data as { viewer?: unknown } | undefined)?.viewer != null };

export async function loader({ request, context }: LoaderFunctionArgs) {
  // No session cookie, no session lookup: the landing page costs visitors no D1 round trip.
  const signedIn = hasSessionCookie(request) ? await findSignedIn(request, context) : null;
  return {
    viewer: signedIn ? { hasActiveOrganization: Boolean(signedIn.profile?.activeOrganizationId) } : null,
    showWholeDemo: new URL(request.url).searchParams.get("demo") === "all",
    // The demo issuer's domain is re-checked daily, as a real one is: last checked today.
    demoCheckedAt: Date.now(),
    canonicalUrl: new URL("/", context.env.APP_URL ?? request.url).href,
  };
}

const FEATURES = [
  {
    icon: ShieldCheck,
    title: "Lifetime Passport",
    text: "One record of your achievements that lasts your whole career, not just one job.",
  },
  {
    icon: History,
    title: "Cross-Company History",
    text: "Recognition from every employer in one timeline that moves with you.",
  },
  {
    icon: Building2,
    title: "Own Your Data",
    text: "You decide what is shown. Accept, decline or hide any achievement at any time.",
  },
  {
    icon: FileX2,
    title: "No More Paper CVs",
    text: "Share one link instead of a document: verified, current and readable on any phone.",
  },
] as const;

export default function Index() {
  const { viewer, showWholeDemo, demoCheckedAt } = useLoaderData<typeof loader>();
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader viewer={viewer} />
      <main className="flex-1">
        <section aria-labelledby="hero-title" className="mx-auto max-w-6xl px-4 pt-16 pb-20 text-center sm:pt-24">
          <p className="mx-auto mb-4 w-fit rounded-full border bg-card px-3 py-1 text-sm text-muted-foreground">
            The digital replacement for the paper CV
          </p>
          <h1 id="hero-title" className="text-4xl font-bold tracking-tight text-balance sm:text-6xl">
            Your career achievements, in one passport for life
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-pretty text-muted-foreground">
            Keep every award, training course and milestone in a public timeline that follows you from employer to
            employer, recognised by the organisations you work with.
          </p>
          <div className="mt-10 flex flex-col items-center justify-center gap-3 sm:flex-row">
            <Link to="/auth?mode=signup" className={buttonVariants({ size: "lg", className: "w-full sm:w-auto" })}>
              Start Your Passport <ArrowRight aria-hidden />
            </Link>
            <a
              href="#demo"
              className={buttonVariants({ size: "lg", variant: "outline", className: "w-full sm:w-auto" })}
            >
              See How It Works
            </a>
          </div>
        </section>

        <section aria-labelledby="features-title" className="border-y bg-muted/40">
          <div className="mx-auto max-w-6xl px-4 py-16">
            <h2 id="features-title" className="sr-only">
              Why a career passport
            </h2>
            <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
              {FEATURES.map(({ icon: Icon, title, text }) => (
                <li key={title}>
                  <Card className="h-full">
                    <CardHeader>
                      <span className="mb-2 grid size-10 place-items-center rounded-lg bg-primary/10 text-primary">
                        <Icon className="size-5" aria-hidden />
                      </span>
                      <CardTitle className="text-lg">{title}</CardTitle>
                    </CardHeader>
                    <CardContent>
                      <CardDescription>{text}</CardDescription>
                    </CardContent>
                  </Card>
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section id="demo" aria-labelledby="demo-title" className="scroll-mt-20 px-4 py-20">
          <div className="mx-auto mb-10 max-w-2xl text-center">
            <h2 id="demo-title" className="text-3xl font-bold tracking-tight">
              See a passport in action
            </h2>
            <p className="mt-3 text-muted-foreground">
              This is what a recruiter sees when you share your link. Tap the photo or explore the timeline.
            </p>
          </div>
          <div className="mx-auto max-w-3xl rounded-2xl border bg-muted/30 p-4 sm:p-8">
            <PublicPassportView
              profile={demoProfile}
              achievements={demoAchievements(demoCheckedAt)}
              showAllHref="/?demo=all#demo"
              showAll={showWholeDemo}
              headingLevel={2}
            />
          </div>
        </section>

        <section aria-labelledby="cta-title" className="px-4 pb-24">
          <div className="mx-auto max-w-4xl rounded-3xl bg-primary px-6 py-14 text-center text-primary-foreground sm:px-12">
            <h2 id="cta-title" className="text-3xl font-bold tracking-tight text-balance">
              Your next employer should see your whole story
            </h2>
            <p className="mx-auto mt-4 max-w-xl opacity-90">
              Start your passport in a minute. It is free during the beta.
            </p>
            <Link
              to="/auth?mode=signup"
              className={buttonVariants({ size: "lg", variant: "secondary", className: "mt-8" })}
            >
              Create Your Passport
            </Link>
          </div>
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}
