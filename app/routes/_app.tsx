import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Outlet, useLoaderData } from "@remix-run/react";
import { AppShell } from "#app/components/app-shell.tsx";
import { readPreferences } from "#app/utils/cookies.server.ts";
import { notificationBell, requireViewer } from "#app/utils/session.server.ts";

// The signed-in area (/dashboard, /passport, /settings): guard, viewer and navigation shell.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const path = new URL(request.url).pathname;
  // An archived account may still open Settings, to delete its data for good.
  // The bell is read in the guard's own batch (docs/decisions/036): this is the first guard of a
  // signed-in page (Remix starts a layout's loader before its page's), so its read is the one
  // every loader of the request shares.
  const viewer = await requireViewer(request, context, { allowArchived: path === "/settings", withBell: true });
  const [{ sidebarOpen }, notifications] = await Promise.all([
    readPreferences(request),
    notificationBell(context, viewer.id),
  ]);
  // A fresh idempotency key for the forms of this render (decision 012). Loaders run again after
  // every action, so each new render of a form gets a new key; a resubmitted one repeats its key.
  return { viewer, notifications, sidebarOpen, submissionKey: crypto.randomUUID() };
}

export default function SignedInLayout() {
  const { viewer, notifications, sidebarOpen } = useLoaderData<typeof loader>();
  return (
    <AppShell viewer={viewer} notifications={notifications} sidebarOpen={sidebarOpen}>
      <Outlet />
    </AppShell>
  );
}
