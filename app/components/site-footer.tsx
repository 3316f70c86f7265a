import { Link } from "@remix-run/react";
import { COPYRIGHT_YEAR, PRODUCT_NAME } from "#app/utils/constants.ts";

export function SiteFooter() {
  return (
    <footer className="border-t">
      <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-3 px-4 py-8 text-sm text-muted-foreground sm:flex-row">
        <p>
          © {COPYRIGHT_YEAR} {PRODUCT_NAME}. All rights reserved.
        </p>
        <nav aria-label="Legal" className="flex flex-wrap justify-center gap-x-6 gap-y-2">
          <Link to="/verify" className="hover:text-foreground">
            Verify a credential
          </Link>
          <Link to="/terms" className="hover:text-foreground">
            Terms &amp; Conditions
          </Link>
          <Link to="/privacy" className="hover:text-foreground">
            Privacy Policy
          </Link>
        </nav>
      </div>
    </footer>
  );
}
