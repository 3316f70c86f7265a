import * as React from "react";
import { cn } from "#app/utils/cn.ts";

/**
 * Each variant and size is a component class of app/styles/app.css (`.btn-*`), so a button's
 * classes are a lookup, not a merge (class-variance-authority's job ended with decision 042, and
 * its 0.2 kB left every page's first load, decision 046). A link that looks like a button takes
 * them directly: `<Link className={buttonVariants({ variant: "outline" })}>` (no `asChild`:
 * radix's Slot cost the dashboard 1.3 kB of its first load, decision 043).
 */
const VARIANTS = {
  default: "btn-default",
  destructive: "btn-destructive",
  outline: "btn-outline",
  secondary: "btn-secondary",
  ghost: "btn-ghost",
  link: "btn-link",
} as const;
const SIZES = { default: "btn-md", sm: "btn-sm", lg: "btn-lg", icon: "btn-icon" } as const;

export type ButtonLook = { variant?: keyof typeof VARIANTS | null; size?: keyof typeof SIZES | null };

/** The classes of a button's look, then the caller's own (`className`). */
export const buttonVariants = ({ variant, size, className }: ButtonLook & { className?: string } = {}) =>
  cn(`btn ${VARIANTS[variant ?? "default"]} ${SIZES[size ?? "default"]}`, className);

export interface ButtonProps extends React.ButtonHTMLAttributes<HTMLButtonElement>, ButtonLook {}

export const Button = React.forwardRef<HTMLButtonElement, ButtonProps>(
  ({ className, variant, size, ...props }, ref) => (
    <button ref={ref} className={cn(buttonVariants({ variant, size }), className)} {...props} />
  ),
);
Button.displayName = "Button";
