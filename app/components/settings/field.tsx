import type { ComponentProps } from "react";
import { FieldError } from "#app/components/form-messages.tsx";
import { Input } from "#app/components/ui/input.tsx";
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
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
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
