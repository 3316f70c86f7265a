import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Outlet, useLoaderData } from "@remix-run/react";
import { AppShell } from "#app/components/app-shell.tsx";
import { readPreferences } from "#app/utils/cookies.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { loadNotifications } from "#db/queries/notifications.ts";
import { log } from "#app/utils/log.server.ts";
import { errorSummary } from "#app/utils/form-reply.server.ts";

// The signed-in area (/dashboard, /passport, /settings): guard, viewer and navigation shell.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const path = new URL(request.url).pathname;
  // An archived account may still open Settings, to delete its data for good.
  const viewer = await requireViewer(request, context, { allowArchived: path === "/settings" });
  const [{ sidebarOpen }, notifications] = await Promise.all([
    readPreferences(request),
    // A quiet failure (spec section 8): the bell shows empty, the page renders.
    loadNotifications(context.db, viewer.id).catch((error: unknown) => {
      log("error", "notifications failed to load", { requestId: context.requestId, error: errorSummary(error) });
      return { items: [], unread: 0 };
    }),
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
