import * as React from "react";
import { cva, type VariantProps } from "class-variance-authority";
import { cn } from "#app/utils/cn.ts";

/**
 * Each variant and size is a component class of app/styles/app.css (`.btn-*`). A link that looks
 * like a button takes them directly: `<Link className={buttonVariants({ variant: "outline" })}>`
 * (no `asChild`: radix's Slot cost the dashboard 1.3 kB of its first load, decision 043).
 */
export const buttonVariants = cva("btn", {
  variants: {
    variant: {
      default: "btn-default",
      destructive: "btn-destructive",
      outline: "btn-outline",
      secondary: "btn-secondary",
      ghost: "btn-ghost",
      link: "btn-link",
    },
    size: { default: "btn-md", sm: "btn-sm", lg: "btn-lg", icon: "btn-icon" },
  },
  defaultVariants: { variant: "default", size: "default" },
});

export interface ButtonProps
  extends React.ButtonHTMLAttributes<HTMLButtonElement>, VariantProps<typeof buttonVariants> {}

export const Button = React.forwardRef<HTMLButtonElement, ButtonProps>(
  ({ className, variant, size, ...props }, ref) => (
    <button ref={ref} className={cn(buttonVariants({ variant, size }), className)} {...props} />
  ),
);
Button.displayName = "Button";
