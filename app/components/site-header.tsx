import { Link } from "@remix-run/react";
import LayoutDashboard from "lucide-react/icons/layout-dashboard";
import { NotificationBell } from "#app/components/notifications/notification-bell.tsx";
import { Logo } from "#app/components/logo.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";

export type HeaderViewer = { hasActiveOrganization: boolean } | null;

export function SiteHeader({ viewer }: { viewer: HeaderViewer }) {
  return (
    <header className="sticky top-0 z-30 border-b bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4">
        <Logo />
        <nav aria-label="Account" className="flex items-center gap-1 sm:gap-2">
          {viewer ? (
            <>
              <NotificationBell />
              <Link
                to="/dashboard"
                aria-label="Dashboard"
                className={buttonVariants({ variant: "ghost", size: "icon" })}
              >
                <LayoutDashboard />
              </Link>
              {viewer.hasActiveOrganization ? null : (
                <Link to="/passport" className={buttonVariants({ size: "sm" })}>
                  My Passport
                </Link>
              )}
            </>
          ) : (
            <>
              <Link to="/auth" className={buttonVariants({ variant: "ghost", size: "sm" })}>
                Sign In
              </Link>
              <Link to="/auth?mode=signup" className={buttonVariants({ size: "sm" })}>
                Get Started
              </Link>
            </>
          )}
        </nav>
      </div>
    </header>
  );
}
