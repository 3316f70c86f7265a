import X from "lucide-react/icons/x";
import type { ReactNode } from "react";
import { cn } from "#app/utils/cn.ts";

/**
 * A dialog for pages served without scripts: the browser's Popover API opens it from its
 * trigger and closes it on Escape, a click outside, or its close button. Pages that hydrate use
 * the radix Dialog instead.
 */
export function PopoverDialog({
  id,
  triggerLabel,
  trigger,
  triggerClassName,
  title,
  description,
  children,
}: {
  id: string;
  triggerLabel: string;
  trigger: ReactNode;
  triggerClassName?: string;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <button type="button" className={triggerClassName} aria-label={triggerLabel} {...{ popovertarget: id }}>
        {trigger}
      </button>
      <div
        id={id}
        role="dialog"
        aria-labelledby={`${id}-title`}
        className={cn(
          "m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg overflow-y-auto rounded-lg border border-border bg-background p-6 text-left text-foreground shadow-lg backdrop:bg-black/50",
        )}
        {...{ popover: "auto" }}
      >
        <div className="grid gap-4">
          <div className="flex flex-col gap-1.5 pr-6 text-center sm:text-left">
            <h2 id={`${id}-title`} className="text-lg leading-none font-semibold tracking-tight">
              {title}
            </h2>
            {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
          </div>
          {children}
        </div>
        <button
          type="button"
          className="absolute top-4 right-4 rounded-sm opacity-70 transition-opacity hover:opacity-100 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          {...{ popovertarget: id, popovertargetaction: "hide" }}
        >
          <X className="size-4" aria-hidden="true" />
          <span className="sr-only">Close</span>
        </button>
      </div>
    </>
  );
}
