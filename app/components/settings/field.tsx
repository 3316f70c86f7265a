import type { ComponentProps } from "react";
import { FieldError } from "#app/components/form-messages.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { PasswordInput } from "#app/components/ui/password-input.tsx";
import { Label } from "#app/components/ui/label.tsx";

/** A labelled input with its message under it. */
export function Field({
  id,
  name,
  label,
  errors,
  ...inputProps
}: { id: string; name: string; label: string; errors?: string[] | null } & ComponentProps<typeof Input>) {
  const errorId = `${id}-error`;
  const FieldInput = inputProps.type === "password" ? PasswordInput : Input;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <FieldInput
        required
        {...inputProps}
        id={id}
        name={name}
        aria-invalid={errors ? true : undefined}
        aria-describedby={errors ? errorId : undefined}
      />
      <FieldError id={errorId} errors={errors ?? undefined} />
    </div>
  );
}
