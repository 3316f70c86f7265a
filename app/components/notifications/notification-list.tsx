import { Form } from "@remix-run/react";
import { cn } from "#app/utils/cn.ts";
import { formatRelativeTime } from "#app/utils/relative-time.ts";

export type NotificationItem = {
  id: string;
  title: string;
  message: string;
  type: string;
  read: boolean;
  createdAt: Date | string;
};

/**
 * The notification items. Each unread one is a button that marks it read: through `onRead`
 * with JavaScript, or a plain form post back to `redirectTo` without.
 */
export function NotificationList({
  items,
  redirectTo,
  onRead,
}: {
  items: NotificationItem[];
  redirectTo: string;
  onRead?: (id: string) => void;
}) {
  if (items.length === 0)
    return <p className="py-10 text-center text-sm text-muted-foreground">No notifications yet</p>;
  return (
    <ul className="divide-y" aria-label="Notification list">
      {items.map((item) => (
        <li key={item.id}>
          <Form
            method="post"
            action="/notifications"
            onSubmit={(event) => {
              if (!onRead) return;
              event.preventDefault();
              onRead(item.id);
            }}
          >
            <input type="hidden" name="intent" value="mark-read" />
            <input type="hidden" name="id" value={item.id} />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <button
              type="submit"
              disabled={item.read}
              aria-label={`${item.title}: ${item.message}${item.read ? "" : " (unread)"}`}
              className={cn(
                "flex w-full gap-3 px-2 py-3 text-left transition-colors hover:bg-accent disabled:cursor-default disabled:hover:bg-transparent",
                item.read ? "opacity-70" : null,
              )}
            >
              <span
                className={cn("mt-1.5 size-2 shrink-0 rounded-full", item.read ? "bg-transparent" : "bg-primary")}
                aria-hidden
              />
              <span className="grid min-w-0 flex-1 gap-0.5">
                <span className="text-sm font-medium break-words">{item.title}</span>
                <span className="text-sm break-words text-muted-foreground">{item.message}</span>
                <time
                  dateTime={new Date(item.createdAt).toISOString()}
                  className="text-xs text-muted-foreground"
                  suppressHydrationWarning
                >
                  {formatRelativeTime(item.createdAt)}
                </time>
              </span>
            </button>
          </Form>
        </li>
      ))}
    </ul>
  );
}
