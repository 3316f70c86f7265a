import { Form, NavLink, useFetcher, useLocation } from "@remix-run/react";
import Building2 from "lucide-react/icons/building-complex";
import ChevronsUpDown from "lucide-react/icons/chevrons-up-down";
import LayoutDashboard from "lucide-react/icons/layout-dashboard";
import LogOut from "lucide-react/icons/log-out";
import Menu from "lucide-react/icons/menu";
import PanelLeft from "lucide-react/icons/panel-left";
import Settings from "lucide-react/icons/settings";
import UserRound from "lucide-react/icons/user-round";
import { Suspense, useCallback, useEffect, useRef, useState, type ComponentProps, type ReactNode } from "react";
import { Logo } from "#app/components/logo.tsx";
import { Pager } from "#app/components/pager.tsx";
import { NotificationBell } from "#app/components/notifications/notification-bell.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { loadDialogFrames, NavigationDialogFrame } from "#app/components/lazy-dialog.tsx";
import { cn } from "#app/utils/cn.ts";
import { ORGANIZATION_SWITCHER_PREFIX } from "#app/utils/constants.ts";
import { useHydrated } from "#app/utils/use-hydrated.ts";

export type ShellViewer = {
  email: string;
  fullName: string;
  userType: "individual" | "organization";
  /** One page of the switcher (alphabetical); `organizationPages` says how many in all. */
  organizations: { id: string; name: string }[];
  organizationPages?: { total: number; next: string | null; previous: string | null };
  activeOrganization: { id: string; name: string } | null;
  /** Set while the account is archived (serialised as a string by the loader). */
  archivedAt?: Date | string | null;
};

const MOBILE_QUERY = "(max-width: 767px)";

/**
 * The signed-in frame: a 16rem sidebar that Ctrl/Cmd+B collapses (state kept in a 7-day cookie
 * the server reads, so the first paint is right), and under 768px an 18rem slide-over panel.
 */
export function AppShell({
  viewer,
  notifications,
  sidebarOpen,
  children,
}: {
  viewer: ShellViewer;
  notifications: ComponentProps<typeof NotificationBell>["initial"];
  sidebarOpen: boolean;
  children: ReactNode;
}) {
  const fetcher = useFetcher();
  const location = useLocation();
  const hydrated = useHydrated();
  const [open, setOpen] = useState(sidebarOpen);
  const [mobileOpen, setMobileOpen] = useState(false);
  // The slide-over's frame is a lazy chunk (lazy-dialog.tsx), mounted from its first opening on.
  const [mobileMounted, setMobileMounted] = useState(false);
  if (mobileOpen && !mobileMounted) setMobileMounted(true);
  const toggleRef = useRef<HTMLButtonElement>(null);

  const toggle = useCallback(() => {
    if (window.matchMedia(MOBILE_QUERY).matches) {
      setMobileOpen((value) => !value);
      return;
    }
    setOpen((value) => {
      fetcher.submit(
        { intent: "sidebar", value: value ? "collapsed" : "open" },
        { method: "post", action: "/preferences" },
      );
      return !value;
    });
  }, [fetcher]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === "b" && (event.metaKey || event.ctrlKey)) {
        event.preventDefault();
        toggle();
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [toggle]);

  // Following a link in the slide-over closes it.
  useEffect(() => setMobileOpen(false), [location.pathname]);

  return (
    <div className="flex min-h-dvh">
      <aside
        aria-label="Sidebar"
        data-state={open ? "expanded" : "collapsed"}
        className={cn("sticky top-0 hidden h-dvh w-64 shrink-0 flex-col border-r bg-card", open && "md:flex")}
      >
        <SidebarContent viewer={viewer} />
      </aside>
      {mobileMounted ? (
        <Suspense fallback={null}>
          <NavigationDialogFrame
            open={mobileOpen}
            onOpenChange={setMobileOpen}
            // Radix returns focus to its own trigger; this one is the header's toggle.
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              toggleRef.current?.focus();
            }}
          >
            <SidebarContent viewer={viewer} />
          </NavigationDialogFrame>
        </Suspense>
      ) : null}

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-20 flex h-14 items-center gap-2 border-b bg-background/90 px-3 backdrop-blur sm:px-4">
          {hydrated ? (
            <Button
              variant="ghost"
              size="icon"
              onClick={toggle}
              onPointerEnter={() => {
                if (window.matchMedia(MOBILE_QUERY).matches) void loadDialogFrames();
              }}
              ref={toggleRef}
              aria-label="Toggle sidebar"
              title="Toggle sidebar (Ctrl+B)"
            >
              <PanelLeft className="hidden md:block" aria-hidden />
              <Menu className="md:hidden" aria-hidden />
            </Button>
          ) : (
            // Without JavaScript: on phones the menu is a native disclosure; on larger screens the
            // toggle is a plain form post that remembers the choice.
            <>
              <details className="relative md:hidden">
                <summary className="grid size-10 cursor-pointer list-none place-items-center rounded-md hover:bg-accent [&::-webkit-details-marker]:hidden">
                  <Menu className="size-4" aria-hidden />
                  <span className="sr-only">Menu</span>
                </summary>
                <div className="absolute top-full left-0 z-30 flex max-h-[80dvh] w-72 max-w-[85vw] flex-col overflow-y-auto rounded-md border bg-card shadow-lg">
                  <SidebarContent viewer={viewer} />
                </div>
              </details>
              <form method="post" action="/preferences" className="hidden md:block">
                <input type="hidden" name="intent" value="sidebar" />
                <input type="hidden" name="value" value={open ? "collapsed" : "open"} />
                <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
                <Button variant="ghost" size="icon" type="submit" aria-label="Toggle sidebar">
                  <PanelLeft aria-hidden />
                </Button>
              </form>
            </>
          )}
          <div className="min-w-0 flex-1 truncate text-sm font-medium text-muted-foreground">
            {viewer.activeOrganization?.name ?? "Personal"}
          </div>
          {/* An archived account (on Settings, choosing to reactivate or delete) gets no live socket. */}
          {viewer.archivedAt ? null : <NotificationBell initial={notifications} />}
        </header>
        <main className="flex-1 px-4 py-6 sm:px-6 lg:px-8">{children}</main>
      </div>
    </div>
  );
}

function SidebarContent({ viewer }: { viewer: ShellViewer }) {
  const items = [
    { to: "/dashboard", label: "Dashboard", icon: LayoutDashboard, show: true },
    { to: "/passport", label: "Passport", icon: UserRound, show: viewer.userType !== "organization" },
    { to: "/settings", label: "Settings", icon: Settings, show: true },
  ];
  return (
    <>
      <div className="flex h-14 items-center border-b px-4">
        <Logo to="/dashboard" />
      </div>
      <nav aria-label="Main" className="flex-1 overflow-y-auto p-3">
        <ul className="grid gap-1">
          {items
            .filter((item) => item.show)
            .map(({ to, label, icon: Icon }) => (
              <li key={to}>
                <NavLink
                  to={to}
                  end={to === "/passport"}
                  className={({ isActive }) =>
                    cn(
                      "flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors hover:bg-accent hover:text-accent-foreground",
                      isActive ? "bg-accent text-accent-foreground" : "text-muted-foreground",
                    )
                  }
                >
                  <Icon className="size-4" aria-hidden />
                  {label}
                </NavLink>
              </li>
            ))}
        </ul>
        <OrganizationSwitcher viewer={viewer} />
      </nav>
      <div className="grid gap-3 border-t p-3">
        <p className="truncate px-1 text-xs text-muted-foreground">
          Signed in as <span className="font-medium text-foreground">{viewer.email}</span>
        </p>
        <Form method="post" action="/auth/signout">
          <Button type="submit" variant="outline" className="w-full justify-start">
            <LogOut aria-hidden /> Sign Out
          </Button>
        </Form>
      </div>
    </>
  );
}

/** A native disclosure, so switching organisation works with or without JavaScript. */
function OrganizationSwitcher({ viewer }: { viewer: ShellViewer }) {
  const location = useLocation();
  const pages = viewer.organizationPages;
  if (viewer.organizations.length === 0 && !pages?.total) return null;
  // Paging reloads the page (without JavaScript): the switcher stays open on its new page.
  const paging = [...new URLSearchParams(location.search).keys()].some((name) =>
    name.startsWith(ORGANIZATION_SWITCHER_PREFIX),
  );
  return (
    <details className="group mt-6 rounded-md border" open={paging || undefined}>
      <summary className="flex cursor-pointer list-none items-center gap-2 px-3 py-2 text-sm font-medium [&::-webkit-details-marker]:hidden">
        <Building2 className="size-4 shrink-0 text-muted-foreground" aria-hidden />
        <span className="min-w-0 flex-1 truncate">{viewer.activeOrganization?.name ?? "Choose organisation"}</span>
        <ChevronsUpDown className="size-4 shrink-0 text-muted-foreground" aria-hidden />
        <span className="sr-only">Switch organisation</span>
      </summary>
      <Form method="post" action="/organizations/active" className="grid gap-1 border-t p-1">
        <input type="hidden" name="redirectTo" value={location.pathname} />
        {viewer.organizations.map((org) => (
          <button
            key={org.id}
            type="submit"
            name="organizationId"
            value={org.id}
            aria-current={org.id === viewer.activeOrganization?.id ? "true" : undefined}
            className="truncate rounded px-2 py-1.5 text-left text-sm hover:bg-accent aria-[current=true]:font-semibold"
          >
            {org.name}
          </button>
        ))}
      </Form>
      {pages && (pages.next || pages.previous) ? (
        <div className="border-t px-2 pb-2">
          <Pager
            prefix={ORGANIZATION_SWITCHER_PREFIX}
            label="Organisation pages"
            shown={viewer.organizations.length}
            total={pages.total}
            noun="organisations"
            previous={pages.previous}
            next={pages.next}
          />
        </div>
      ) : null}
    </details>
  );
}
