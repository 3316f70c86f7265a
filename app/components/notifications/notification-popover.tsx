import type { ReactElement } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Popover, PopoverContent, PopoverTrigger } from "#app/components/ui/popover.tsx";
import { ScrollArea } from "#app/components/ui/scroll-area.tsx";
import { NotificationList, type NotificationItem } from "./notification-list.tsx";

/**
 * The bell's popover: the latest notifications and "Mark all read". Its own chunk, loaded when
 * the bell is first pointed at, focused or pressed (notification-bell.tsx), so radix's popper and
 * scroll area stay out of every signed-in page's first load (docs/decisions/035). It mounts open:
 * the press that loaded it is the press that opens it.
 */
export default function NotificationPopover({
  trigger,
  items,
  unread,
  redirectTo,
  onRead,
}: {
  trigger: ReactElement;
  items: NotificationItem[];
  unread: number;
  redirectTo: string;
  onRead: (ids: string[] | "all") => void;
}) {
  return (
    <Popover defaultOpen>
      <PopoverTrigger asChild>{trigger}</PopoverTrigger>
      <PopoverContent align="end" className="w-96 p-0">
        <div className="flex items-center justify-between border-b px-4 py-3">
          <h2 className="font-semibold">Notifications</h2>
          <Button variant="ghost" size="sm" onClick={() => onRead("all")} disabled={unread === 0}>
            Mark all read
          </Button>
        </div>
        <ScrollArea className="h-[400px]">
          <div className="px-2">
            <NotificationList items={items} redirectTo={redirectTo} onRead={(id) => onRead([id])} />
          </div>
        </ScrollArea>
      </PopoverContent>
    </Popover>
  );
}
