import { Form, Link, useLocation } from "@remix-run/react";
import { Suspense, useState, type ReactNode } from "react";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { ConfirmDialogFrame, useLazyDialog } from "#app/components/lazy-dialog.tsx";
import { Button, type ButtonProps, buttonVariants } from "#app/components/ui/button.tsx";
import { useFormReply } from "#app/utils/form-reply.ts";
import { cn } from "#app/utils/cn.ts";
import { useHydrated } from "#app/utils/use-hydrated.ts";

/**
 * A destructive action behind a confirmation: an alert dialog with JavaScript; without it, a
 * link to ?confirm={id} on this page, where the same confirmation is rendered inline. The alert
 * dialog's frame is a lazy chunk (lazy-dialog.tsx).
 */
export function ConfirmAction({
  id,
  intent,
  fields = {},
  trigger,
  title,
  description,
  confirm,
  triggerVariant = "destructive",
  triggerSize,
  confirmVariant = "destructive",
  onOpenChange,
  children,
}: {
  id: string;
  intent: string;
  fields?: Record<string, string>;
  trigger: ReactNode;
  title: string;
  description: ReactNode;
  confirm: string;
  triggerVariant?: ButtonProps["variant"];
  triggerSize?: ButtonProps["size"];
  /** The confirming button's look: destructive unless the action is not (a renewal). */
  confirmVariant?: ButtonProps["variant"];
  onOpenChange?: (open: boolean) => void;
  /** Inputs the confirmation asks for (a password), posted with it. */
  children?: ReactNode;
}) {
  const hydrated = useHydrated();
  const location = useLocation();
  const searchParams = new URLSearchParams(location.search);
  // This page with (or without) ?confirm=, keeping its other parameters (a list's filter or page).
  const confirmHref = (value?: string) => {
    const params = new URLSearchParams(location.search);
    params.delete("confirm");
    if (value) params.set("confirm", value);
    const query = params.toString();
    return query ? `${location.pathname}?${query}` : location.pathname;
  };
  // Closed again whenever the page moves on, also when the action redirects back to this same
  // page (a reset link stays on the dashboard; a removed row would simply unmount). A refused
  // answer to this confirmation (a wrong password) keeps it open, its message beside the field:
  // the answer is a new location too, so the dialog follows the last location that was not one.
  const refused = useFormReply(id);
  const [closeOn, setCloseOn] = useState(location.key);
  if (!refused && closeOn !== location.key) setCloseOn(location.key);
  const { mounted, triggerProps, frameProps } = useLazyDialog({ onOpenChange, closeOn });
  const confirmForm = (
    // With extra inputs (children), a refused answer must show this confirmation again, with its
    // error: without JavaScript that takes the ?confirm= of the page's address.
    <Form
      method="post"
      action={children ? location.pathname + location.search : location.pathname}
      className={children ? "grid w-full gap-3" : undefined}
    >
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
      <SubmitButton intent={intent} variant={confirmVariant}>
        {confirm}
      </SubmitButton>
    </Form>
  );

  if (!hydrated) {
    if (searchParams.get("confirm") !== id) {
      return (
        <Link to={confirmHref(id)} className={buttonVariants({ variant: triggerVariant, size: triggerSize })}>
          {trigger}
        </Link>
      );
    }
    return (
      <section
        aria-label={title}
        className={cn(
          "grid gap-3 rounded-md border p-4",
          confirmVariant === "destructive" ? "border-destructive/50" : "border-border",
        )}
      >
        <h3 className="font-semibold">{title}</h3>
        <div className="text-sm text-muted-foreground">{description}</div>
        <div className="flex flex-wrap gap-2">
          <Link to={confirmHref()} className={buttonVariants({ variant: "outline" })}>
            Cancel
          </Link>
          {confirmForm}
        </div>
      </section>
    );
  }

  return (
    <>
      <Button variant={triggerVariant} size={triggerSize} {...triggerProps}>
        {trigger}
      </Button>
      {mounted ? (
        <Suspense fallback={null}>
          <ConfirmDialogFrame title={title} description={description} {...frameProps}>
            {confirmForm}
          </ConfirmDialogFrame>
        </Suspense>
      ) : null}
    </>
  );
}
