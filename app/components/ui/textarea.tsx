import * as React from "react";
import { cn } from "#app/utils/cn.ts";

export type TextareaProps = React.TextareaHTMLAttributes<HTMLTextAreaElement>;

export const Textarea = React.forwardRef<HTMLTextAreaElement, TextareaProps>(({ className, ...props }, ref) => (
  <textarea ref={ref} className={cn("textarea", className)} {...props} />
));
Textarea.displayName = "Textarea";
