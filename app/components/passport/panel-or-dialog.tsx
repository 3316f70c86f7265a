import { Form, Link, useNavigate } from "@remix-run/react";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Suspense, useState, type ReactNode } from "react";
import { FormDialogFrame } from "#app/components/lazy-dialog.tsx";
import { useHydrated } from "#app/utils/use-hydrated.ts";

/**
 * What a form of /passport answers with a page state of its own (`?wallet=`, `?accept-wallet=`):
 * rendered by the server as a panel at the top of the page (what a browser without JavaScript
 * shows after posting the form); after a client-side post, a dialog, closed back to `closeHref`.
 */
export function PanelOrDialog({
  id,
  title,
  closeHref,
  children,
}: {
  id: string;
  title: string;
  closeHref: string;
  children: ReactNode;
}) {
  // Decided once: a page hydrating the server's panel keeps it; one rendered in the browser is a dialog.
  const [asDialog] = useState(useHydrated());
  const navigate = useNavigate();
  if (!asDialog)
    return (
      <section id={id} aria-labelledby={`${id}-title`} className="grid gap-4 rounded-xl border bg-card p-6">
        <h2 id={`${id}-title`} className="text-xl font-semibold">
          {title}
        </h2>
        {children}
      </section>
    );
  return (
    <Suspense fallback={null}>
      <FormDialogFrame
        title={title}
        open
        onOpenChange={(open) => {
          if (!open) navigate(closeHref, { replace: true, preventScrollReset: true });
        }}
        onCloseAutoFocus={() => {}}
      >
        {children}
      </FormDialogFrame>
    </Suspense>
  );
}

/**
 * The foot of a wallet code's panel or dialog: 'Get a new code' (posting `intent` again, unless
 * `newCode` is false) and 'Close'.
 */
export function NewCodeOrClose({
  intent,
  achievementId,
  closeHref,
  newCode = true,
}: {
  intent: string;
  achievementId: string;
  closeHref: string;
  newCode?: boolean;
}) {
  return (
    <Form method="post" className="flex flex-wrap gap-2">
      <input type="hidden" name="achievementId" value={achievementId} />
      {newCode ? (
        <SubmitButton intent={intent} size="sm" variant="outline" pendingText="Getting a new code...">
          Get a new code
        </SubmitButton>
      ) : null}
      <Link to={closeHref} replace preventScrollReset className={buttonVariants({ size: "sm", variant: "ghost" })}>
        Close
      </Link>
    </Form>
  );
}
