import * as React from "react";
import { cn } from "#app/utils/cn.ts";

// A picture over the initials. Plain elements rather than radix Avatar, whose image appears
// only after scripts run: here the server renders the picture (pages without scripts show it
// too, and nothing shifts); if it fails to load, the initials underneath stay visible.

export const Avatar = React.forwardRef<HTMLSpanElement, React.HTMLAttributes<HTMLSpanElement>>(
  ({ className, ...props }, ref) => <span ref={ref} className={cn("avatar", className)} {...props} />,
);
Avatar.displayName = "Avatar";

export const AvatarImage = React.forwardRef<HTMLImageElement, React.ImgHTMLAttributes<HTMLImageElement>>(
  ({ className, alt = "", onError, ...props }, ref) => (
    <img
      ref={ref}
      alt={alt}
      decoding="async"
      className={cn("avatar-image", className)}
      onError={(event) => {
        event.currentTarget.hidden = true;
        onError?.(event);
      }}
      {...props}
    />
  ),
);
AvatarImage.displayName = "AvatarImage";

export const AvatarFallback = React.forwardRef<HTMLSpanElement, React.HTMLAttributes<HTMLSpanElement>>(
  ({ className, ...props }, ref) => <span ref={ref} className={cn("avatar-fallback", className)} {...props} />,
);
AvatarFallback.displayName = "AvatarFallback";
