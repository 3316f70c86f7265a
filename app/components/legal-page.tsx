import { Link, useNavigate } from "@remix-run/react";
import ArrowLeft from "lucide-react/icons/arrow-left";
import type { ReactNode } from "react";
import { LogoHeader } from "#app/components/logo.tsx";
import { SiteFooter } from "#app/components/site-footer.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";

/** Frame of the static legal pages: Back (to where the reader came from, or home), title, text. */
export function LegalPage({ title, updated, children }: { title: string; updated: string; children: ReactNode }) {
  const navigate = useNavigate();
  return (
    <div className="flex min-h-dvh flex-col">
      <LogoHeader />
      <main className="mx-auto w-full max-w-3xl flex-1 px-4 py-10">
        <Link
          to="/"
          onClick={(event) => {
            // With history, Back means back; opened directly, it leads home.
            if (window.history.state?.idx > 0) {
              event.preventDefault();
              navigate(-1);
            }
          }}
          className={buttonVariants({ variant: "ghost", className: "mb-6 -ml-3" })}
        >
          <ArrowLeft aria-hidden /> Back
        </Link>
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        <p className="mt-2 text-sm text-muted-foreground">Last updated {updated}</p>
        <div className="mt-8 space-y-8 leading-relaxed [&_h2]:mb-2 [&_h2]:text-xl [&_h2]:font-semibold [&_li]:ml-5 [&_li]:list-disc [&_p+p]:mt-3 [&_ul]:space-y-1">
          {children}
        </div>
      </main>
      <SiteFooter />
    </div>
  );
}
