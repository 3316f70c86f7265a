import * as React from "react";
import { cn } from "#app/utils/cn.ts";

/**
 * A form label. A native `<label>`, not radix's Label: that one only adds a guard against
 * selecting the label's text on a double click, and with it radix's Primitive and Slot came into
 * the first load of /settings and the sign-in pages (2 kB of gzip, decision 043).
 */
export const Label = React.forwardRef<HTMLLabelElement, React.LabelHTMLAttributes<HTMLLabelElement>>(
  ({ className, ...props }, ref) => (
    <label
      ref={ref}
      className={cn(
        "text-sm leading-none font-medium text-foreground peer-disabled:cursor-not-allowed peer-disabled:opacity-70",
        className,
      )}
      {...props}
    />
  ),
);
Label.displayName = "Label";
