import { getFormProps, getInputProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { useId, type ComponentProps, type ReactNode } from "react";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { cn } from "#app/utils/cn.ts";
import { FieldError } from "./form-messages.tsx";

export { getFormProps };

type InputType = Parameters<typeof getInputProps>[1]["type"];

export function TextField({
  field,
  label,
  type = "text",
  hint,
  className,
  as: FieldInput = Input,
  ...inputProps
}: {
  field: FieldMetadata<string | undefined>;
  label: ReactNode;
  type?: InputType;
  hint?: ReactNode;
  /** The input component: `PasswordInput` for a password (password-field.tsx). */
  as?: typeof Input;
} & Omit<ComponentProps<typeof Input>, "type" | "name" | "defaultValue">) {
  const hintId = useId();
  const props = getInputProps(field, { type, ariaAttributes: true });
  return (
    <div className={cn("grid gap-2", className)}>
      <Label htmlFor={field.id}>{label}</Label>
      <FieldInput
        {...props}
        key={props.key}
        {...inputProps}
        aria-describedby={[props["aria-describedby"], hint ? hintId : null].filter(Boolean).join(" ") || undefined}
      />
      {hint ? (
        <p id={hintId} className="text-sm text-muted-foreground">
          {hint}
        </p>
      ) : null}
      <FieldError id={field.errorId} errors={field.errors} />
    </div>
  );
}

export function TextareaField({
  field,
  label,
  className,
  ...textareaProps
}: {
  field: FieldMetadata<string | undefined>;
  label: ReactNode;
} & Omit<ComponentProps<typeof Textarea>, "name" | "defaultValue">) {
  const props = getTextareaProps(field, { ariaAttributes: true });
  return (
    <div className={cn("grid gap-2", className)}>
      <Label htmlFor={field.id}>{label}</Label>
      <Textarea {...props} key={props.key} {...textareaProps} />
      <FieldError id={field.errorId} errors={field.errors} />
    </div>
  );
}
