import * as React from "react";
import { cn } from "#app/utils/cn.ts";
import { useHydrated } from "#app/utils/use-hydrated.ts";
import { Input, type InputProps } from "./input.tsx";

/**
 * A password field with a 'Show' / 'Hide' toggle (ASVS 2.1.12), so a long password can be
 * checked before it is sent. The toggle sits inside the field (no layout shift) and appears once
 * the page runs scripts; without them the field is a plain password input. Words, not an eye
 * icon: the icon would be a chunk shared with the passport page, which carries its own.
 */
export const PasswordInput = React.forwardRef<HTMLInputElement, InputProps>(
  // `type` is the toggle's to set; a caller's "password" is taken as read.
  ({ className, type: _type, ...props }, ref) => {
    const hydrated = useHydrated();
    const [shown, setShown] = React.useState(false);
    return (
      <div className="relative">
        <Input ref={ref} {...props} type={shown ? "text" : "password"} className={cn("pr-16", className)} />
        {hydrated ? (
          <button
            type="button"
            onClick={() => setShown(!shown)}
            className="absolute inset-y-0 right-0 rounded-r-md px-3 text-sm font-medium text-primary hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            {shown ? "Hide" : "Show"}
            {/* Named "Show password" (the visible word first); the field keeps the only label. */}
            <span className="sr-only"> password</span>
          </button>
        ) : null}
      </div>
    );
  },
);
PasswordInput.displayName = "PasswordInput";
