import type * as React from "react";
import { cn } from "#app/utils/cn.ts";

// A dialog's header and footer: plain layout, no radix. Forms shown in a dialog import them from
// here, so the form's module does not pull radix's dialog into a page's first load (the dialog's
// frame is a lazy chunk: components/lazy-dialog.tsx).

export function DialogHeader({ className, ...props }: React.HTMLAttributes<HTMLDivElement>) {
  return <div className={cn("flex flex-col gap-1.5 pr-6 text-center sm:text-left", className)} {...props} />;
}
DialogHeader.displayName = "DialogHeader";

export function DialogFooter({ className, ...props }: React.HTMLAttributes<HTMLDivElement>) {
  return <div className={cn("flex flex-col-reverse gap-2 sm:flex-row sm:justify-end", className)} {...props} />;
}
DialogFooter.displayName = "DialogFooter";
