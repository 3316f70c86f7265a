import * as React from "react";
import { cn } from "#app/utils/cn.ts";

/** Each variant is a component class of app/styles/app.css (`.badge-*`): see buttonVariants. */
const VARIANTS = {
  default: "badge-default",
  secondary: "badge-secondary",
  outline: "badge-outline",
  destructive: "badge-destructive",
  success: "badge-success",
} as const;

export const badgeVariants = ({ variant }: { variant?: keyof typeof VARIANTS | null } = {}) =>
  `badge ${VARIANTS[variant ?? "default"]}`;

export interface BadgeProps extends React.HTMLAttributes<HTMLSpanElement> {
  variant?: keyof typeof VARIANTS | null;
}

export const Badge = React.forwardRef<HTMLSpanElement, BadgeProps>(({ className, variant, ...props }, ref) => (
  <span ref={ref} className={cn(badgeVariants({ variant }), className)} {...props} />
));
Badge.displayName = "Badge";
