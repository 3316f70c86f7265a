import { FieldError } from "./form-messages.tsx";
import { Input } from "./ui/input.tsx";
import { Label } from "./ui/label.tsx";

/**
 * The one-time code of a second step (signing in, confirming a session): six digits from the
 * authenticator app, or (`recovery`) one of the recovery codes.
 */
export function CodeField({
  label,
  recovery,
  autoFocus,
  errors,
}: {
  label: string;
  recovery: boolean;
  autoFocus: boolean;
  errors: string[] | undefined;
}) {
  return (
    <div className="grid gap-2">
      <Label htmlFor="code">{label}</Label>
      <Input
        id="code"
        name="code"
        required
        autoFocus={autoFocus}
        autoComplete={recovery ? "off" : "one-time-code"}
        inputMode={recovery ? "text" : "numeric"}
        spellCheck={false}
        aria-invalid={errors ? true : undefined}
        aria-describedby={errors ? "code-error" : undefined}
      />
      <FieldError id="code-error" errors={errors} />
    </div>
  );
}
