import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { CookieBanner } from "./components/cookie-banner.tsx";
import { ErrorPage, NotFoundPage } from "./components/error-pages.tsx";
import { Toaster } from "./components/toaster.tsx";
import { readPreferences, readToast } from "./utils/cookies.server.ts";
import { PRODUCT_NAME, TOAST_AFTER_REDIRECT } from "./utils/constants.ts";
import { pageHydrates } from "./utils/hydration.ts";
import { useNonce } from "./utils/nonce.tsx";
import stylesheet from "./styles/app.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [
  { title: `${PRODUCT_NAME} · Your lifelong record of achievements` },
  {
    name: "description",
    content:
      "A digital career passport: a lifelong, shareable timeline of your awards, training and milestones that follows you from employer to employer.",
  },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [{ toast, clearHeader }, preferences] = await Promise.all([
    readToast(context.env, request),
    readPreferences(request),
  ]);
  return data({ toast, ...preferences }, clearHeader ? { headers: { "Set-Cookie": clearHeader } } : undefined);
}

/**
 * A revalidation that is neither a navigation nor a submission (the subscription control reading
 * the members list again while checkout is open in another tab) leaves the root's loader out: it
 * would take the toast cookie another tab's redirect has just set for its own next page, and that
 * tab would never show it. The toast waits for the next navigation instead.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formMethod,
  actionResult,
  defaultShouldRevalidate,
}) => {
  // An action whose toast is for the page it leads to (TOAST_AFTER_REDIRECT) leaves it there too.
  if (formMethod && typeof actionResult === "object" && actionResult !== null && TOAST_AFTER_REDIRECT in actionResult)
    return false;
  return !formMethod && currentUrl.href === nextUrl.href ? false : defaultShouldRevalidate;
};

export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const rootData = useRootData();
  const hydrate = pageHydrates(useMatches());
  return (
    <html lang="en-GB">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="color-scheme" content="light dark" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-dvh bg-background text-foreground">
        {children}
        <Toaster />
        {rootData && rootData.cookieConsent === null ? <CookieBanner /> : null}
        {hydrate ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) return <NotFoundPage />;
    // A refusal that says why in words (an admin held back by their organisation) shows them.
    if (error.status === 403)
      return (
        <ErrorPage
          title="Not allowed"
          message={
            typeof error.data === "string" && error.data !== "Forbidden"
              ? error.data
              : "You do not have permission to do that."
          }
        />
      );
    if (error.status < 500)
      return <ErrorPage title="That did not work" message="The request was not valid. Please go back and try again." />;
    // A part the page cannot do without failed to load (logged where it failed): the spec's title.
    const failed = error.data as { title?: unknown; description?: unknown } | null;
    if (typeof failed?.title === "string" && typeof failed.description === "string")
      return <ErrorPage title={failed.title} message={failed.description} />;
  }
  // Only the unexpected is logged; refusals above are the app working as intended.
  console.error(error);
  return <ErrorPage />;
}
