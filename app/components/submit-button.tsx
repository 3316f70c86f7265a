import { useNavigation } from "@remix-run/react";
import Loader2 from "lucide-react/icons/loader-circle";
import type { ComponentProps, ReactNode } from "react";
import { Button } from "#app/components/ui/button.tsx";

/**
 * A submit button that shows progress and refuses a second click while its form is in flight,
 * so a double submit does nothing twice. The guard is applied after the caller's props: a
 * caller's `disabled` can only add to it, never lift it, and the button always submits.
 */
export function SubmitButton({
  intent,
  children,
  pendingText,
  disabled,
  ...props
}: { intent?: string; pendingText?: ReactNode } & Omit<ComponentProps<typeof Button>, "type">) {
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" && (intent === undefined || navigation.formData?.get("intent") === intent);
  return (
    <Button
      {...props}
      {...(intent ? { name: "intent", value: intent } : {})}
      type="submit"
      disabled={pending || disabled}
      aria-busy={pending || undefined}
    >
      {pending ? <Loader2 className="animate-spin" aria-hidden /> : null}
      {pending && pendingText ? pendingText : children}
    </Button>
  );
}
