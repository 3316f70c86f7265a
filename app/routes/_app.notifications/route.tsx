import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData, useLocation } from "@remix-run/react";
import { NotificationList } from "#app/components/notifications/notification-list.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { runIntent } from "#app/utils/intent.server.ts";
import { requireUser } from "#app/utils/session.server.ts";
import { loadNotifications } from "#db/queries/notifications.ts";
import { PAGE_SIZES, pageRequestFrom } from "#db/queries/paging.ts";
import { Pager } from "#app/components/pager.tsx";
import { markAllReadIntent } from "./mark-all-read.server.ts";
import { markReadIntent } from "./mark-read.server.ts";

export const meta: MetaFunction = () => [{ title: `Notifications · ${PRODUCT_NAME}` }];

// The bell's data (it loads this route with a fetcher: the first page) and the history, a page
// at a time (`?after=…`, `?before=…`).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const page = pageRequestFrom(new URL(request.url).searchParams, "", PAGE_SIZES.notifications);
  return loadNotifications(context.db, user.id, page);
}

/** Marking read, from the bell (a fetcher) or the history page (a plain form). */
const INTENTS = { "mark-read": markReadIntent, "mark-all-read": markAllReadIntent };

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const fields = await request.formData();
  return runIntent({ request, context }, INTENTS, { viewer: user, fields, back: "/notifications" });
}

export default function NotificationsPage() {
  const { items, unread, total, next, previous } = useLoaderData<typeof loader>();
  // Marking read comes back to the same page of the history.
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  return (
    <Card className="mx-auto max-w-2xl">
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle as="h1" className="text-2xl">
          Notifications
        </CardTitle>
        {unread > 0 ? (
          <Form method="post">
            <input type="hidden" name="redirectTo" value={here} />
            <Button type="submit" name="intent" value="mark-all-read" variant="outline" size="sm">
              Mark all read
            </Button>
          </Form>
        ) : null}
      </CardHeader>
      <CardContent>
        <NotificationList items={items} redirectTo={here} />
        {total > 0 ? (
          <Pager
            prefix=""
            label="Notification pages"
            shown={items.length}
            total={total}
            noun="notifications"
            previous={previous}
            next={next}
          />
        ) : null}
      </CardContent>
    </Card>
  );
}
