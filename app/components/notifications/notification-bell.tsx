import { Link, useFetcher, useLocation } from "@remix-run/react";
import Bell from "lucide-react/icons/bell";
import { lazy, Suspense, useEffect, useState, type ComponentProps } from "react";
import { showToast } from "#app/utils/toast.ts";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import type { HubMessage } from "#app/utils/hub-message.ts";
import { unreadBadge } from "#app/utils/relative-time.ts";
import { PAGE_SIZES } from "#db/queries/page-sizes.ts";
import { useHydrated } from "#app/utils/use-hydrated.ts";
import { useNotificationSocket } from "#app/utils/use-notification-socket.ts";
import type { NotificationItem } from "./notification-list.tsx";

const loadPopover = () => import("./notification-popover.tsx");
const NotificationPopover = lazy(loadPopover);

type BellData = { items: NotificationItem[]; unread: number };

/**
 * The bell: unread badge, a popover with the latest 20, live updates from the user's hub.
 * Without JavaScript it is a link to the notifications page. The popover is a lazy chunk: fetched
 * when the bell is pointed at or focused, shown when it is pressed (docs/decisions/035).
 */
export function NotificationBell({ initial }: { initial?: BellData }) {
  const hydrated = useHydrated();
  const location = useLocation();
  const loader = useFetcher<BellData>();
  const marker = useFetcher();
  const [data, setData] = useState<BellData | null>(initial ?? null);
  // Pressed once: from then on the bell is the popover's trigger.
  const [pressed, setPressed] = useState(false);

  useEffect(() => {
    if (initial) setData(initial);
  }, [initial]);
  useEffect(() => {
    if (loader.data) setData(loader.data);
  }, [loader.data]);
  useEffect(() => {
    if (!initial) loader.load("/notifications");
    // Only on mount: later updates arrive through the socket.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const live = useNotificationSocket(
    (message: HubMessage) => {
      if (message.type === "notification") {
        const item = message.notification;
        setData((current) => ({
          items: [item, ...(current?.items ?? []).filter((other) => other.id !== item.id)].slice(
            0,
            PAGE_SIZES.notifications,
          ),
          unread: (current?.unread ?? 0) + 1,
        }));
        showToast({ title: item.title, description: item.message });
      } else {
        setData((current) => current && markLocally(current, message.ids));
      }
    },
    () => loader.load("/notifications"),
  );

  const unread = data?.unread ?? 0;
  const badge =
    unread > 0 ? (
      <span
        aria-hidden
        data-testid="unread-badge"
        className="absolute -top-0.5 -right-0.5 grid h-4 min-w-4 place-items-center rounded-full bg-destructive px-1 text-[10px] leading-none font-semibold text-destructive-foreground"
      >
        {unreadBadge(unread)}
      </span>
    ) : null;
  const label = unread > 0 ? `Notifications, ${unread} unread` : "Notifications";

  if (!hydrated) {
    return (
      <Link
        to="/notifications"
        aria-label={label}
        className={buttonVariants({ variant: "ghost", size: "icon", className: "relative" })}
      >
        <Bell aria-hidden />
        {badge}
      </Link>
    );
  }

  const markRead = (ids: string[] | "all") => {
    setData(
      (current) =>
        current &&
        (ids === "all"
          ? { items: current.items.map((item) => ({ ...item, read: true })), unread: 0 }
          : markLocally(current, ids)),
    );
    marker.submit(ids === "all" ? { intent: "mark-all-read" } : { intent: "mark-read", id: ids[0]! }, {
      method: "post",
      action: "/notifications",
    });
  };

  const bellButton = (props: ComponentProps<typeof Button>) => (
    <Button variant="ghost" size="icon" className="relative" aria-label={label} data-live={live} {...props}>
      <Bell aria-hidden />
      {badge}
    </Button>
  );
  if (!pressed) {
    return bellButton({
      "aria-haspopup": "dialog",
      "aria-expanded": false,
      onPointerEnter: () => void loadPopover(),
      onFocus: () => void loadPopover(),
      onClick: () => setPressed(true),
    });
  }
  // The same button stands in while the chunk arrives: nothing moves.
  return (
    <Suspense fallback={bellButton({ "aria-haspopup": "dialog", "aria-expanded": false, "aria-busy": true })}>
      <NotificationPopover
        trigger={bellButton({})}
        items={data?.items ?? []}
        unread={unread}
        redirectTo={location.pathname}
        onRead={markRead}
      />
    </Suspense>
  );
}

function markLocally(data: BellData, ids: string[]): BellData {
  const wanted = new Set(ids);
  const shownUnread = data.items.filter((item) => wanted.has(item.id) && !item.read).length;
  const notShown = ids.filter((id) => !data.items.some((item) => item.id === id)).length;
  return {
    items: data.items.map((item) => (wanted.has(item.id) ? { ...item, read: true } : item)),
    unread: Math.max(0, data.unread - shownUnread - notShown),
  };
}
