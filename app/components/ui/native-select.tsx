import * as React from "react";
import ChevronDown from "lucide-react/icons/chevron-down";
import { cn } from "#app/utils/cn.ts";

export type NativeSelectProps = React.SelectHTMLAttributes<HTMLSelectElement>;

/**
 * The browser's own `<select>`, styled like Input. Not radix's Select: the native one posts
 * with its form before (and without) JavaScript, and opens the phone's own picker.
 * `appearance-none` and our chevron make it look the same in every browser and theme.
 */
export const NativeSelect = React.forwardRef<HTMLSelectElement, NativeSelectProps>(({ className, ...props }, ref) => (
  <div className="relative">
    <select
      ref={ref}
      className={cn(
        "flex h-10 w-full appearance-none rounded-md border border-input bg-background py-2 pr-9 pl-3 text-base text-foreground transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background focus-visible:outline-none disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive aria-invalid:focus-visible:ring-destructive md:text-sm",
        className,
      )}
      {...props}
    />
    <ChevronDown
      className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground"
      aria-hidden
    />
  </div>
));
NativeSelect.displayName = "NativeSelect";
