import { Checkbox } from "#app/components/ui/checkbox.tsx";
import { Label } from "#app/components/ui/label.tsx";

/** An organisation setting's checkbox, its label and a note under it. */
export function SettingCheckbox({
  name,
  checked,
  resetKey,
  label,
  note,
}: {
  name: string;
  checked: boolean;
  resetKey: string;
  label: string;
  note: string;
}) {
  return (
    <div className="flex items-start gap-3">
      <Checkbox
        id={name}
        name={name}
        defaultChecked={checked}
        key={resetKey}
        className="mt-0.5"
        aria-describedby={`${name}-note`}
      />
      <div className="grid gap-1">
        <Label htmlFor={name}>{label}</Label>
        <p id={`${name}-note`} className="text-sm text-muted-foreground">
          {note}
        </p>
      </div>
    </div>
  );
}
