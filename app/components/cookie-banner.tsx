import { useFetcher, useLocation } from "@remix-run/react";
import { Button } from "#app/components/ui/button.tsx";
import { useHydrated } from "#app/utils/use-hydrated.ts";

// Sticky, not fixed: at the end of the page it takes its own room instead of covering the footer.
// From md up, where the signed-in sidebar shows, it is a card at the right: it never covers the
// sidebar's foot (Sign Out) wherever the page stands.
// Shown until the visitor chooses; the choice lives in the `cookie-consent` cookie, which the
// server reads, so the banner never flashes on later visits.
export function CookieBanner() {
  const fetcher = useFetcher();
  const location = useLocation();
  const hydrated = useHydrated();
  if (fetcher.formData) return null;

  return (
    <section
      aria-label="Cookie consent"
      className="sticky bottom-0 z-40 border-t bg-card/95 p-4 shadow-lg backdrop-blur supports-[backdrop-filter]:bg-card/80 md:bottom-4 md:mr-4 md:mb-4 md:ml-auto md:max-w-md md:rounded-lg md:border print:hidden"
    >
      <fetcher.Form
        method="post"
        action="/preferences"
        className="mx-auto flex max-w-5xl flex-col gap-3 sm:flex-row sm:items-center sm:justify-between md:flex-col md:items-stretch"
      >
        <p className="text-sm text-muted-foreground">
          We use essential cookies to keep you signed in and remember your preferences. See our{" "}
          <a href="/privacy" className="font-medium text-foreground underline underline-offset-4">
            Privacy Policy
          </a>
          .
        </p>
        <input type="hidden" name="intent" value="cookie-consent" />
        {/* Without JavaScript the post comes back to this page; a fetcher just stays. */}
        {hydrated ? null : <input type="hidden" name="redirectTo" value={location.pathname + location.search} />}
        <div className="flex shrink-0 justify-end gap-2">
          <Button type="submit" name="value" value="declined" variant="outline" size="sm">
            Decline
          </Button>
          <Button type="submit" name="value" value="accepted" size="sm">
            Accept
          </Button>
        </div>
      </fetcher.Form>
    </section>
  );
}
