import { Link, useLocation } from "@remix-run/react";
import { createContext, Suspense, useContext, useEffect, type ReactNode } from "react";
import { FormDialogFrame, useLazyDialog } from "#app/components/lazy-dialog.tsx";
import { Button, type ButtonProps, buttonVariants } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { useHydrated } from "#app/utils/use-hydrated.ts";

/** Closes the open form dialog: what its Cancel button does. */
const CloseDialog = createContext<() => void>(() => {});

/**
 * A form in a dialog. Without JavaScript the trigger is a link to `openHref` and the form shows
 * inline there. The dialog reopens when the server refused the form (`failed`) and closes after
 * a successful submit (which redirects to a new location). The dialog's frame is a lazy chunk
 * (lazy-dialog.tsx); so may its form be (`children` a lazy component, `prefetch` its import:
 * docs/decisions/039), which is why the form stands in a Suspense boundary wherever it shows.
 */
export function FormDialog({
  title,
  description,
  trigger,
  triggerVariant,
  triggerSize,
  openHref,
  failed,
  prefetch,
  children,
}: {
  title: string;
  description?: ReactNode;
  trigger: ReactNode;
  triggerVariant?: ButtonProps["variant"];
  triggerSize?: ButtonProps["size"];
  /** This page with the search param that shows the form inline, e.g. "/dashboard?create=1". */
  openHref: string;
  failed: boolean;
  /** Starts loading a lazy form, with the dialog's frame, when the trigger is pointed at or focused. */
  prefetch?: () => Promise<unknown>;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  const location = useLocation();
  const { mounted, setOpen, triggerProps, frameProps } = useLazyDialog({ closeOn: location.key, prefetch });
  useEffect(() => {
    if (failed) setOpen(true);
  }, [failed, setOpen]);

  if (!hydrated) {
    if (location.pathname + location.search !== openHref) {
      return (
        <Link to={openHref} className={buttonVariants({ variant: triggerVariant, size: triggerSize })}>
          {trigger}
        </Link>
      );
    }
    return (
      <Card className="w-full">
        <CardHeader>
          <CardTitle as="h2">{title}</CardTitle>
        </CardHeader>
        <CardContent>
          <Suspense fallback={null}>{children}</Suspense>
        </CardContent>
      </Card>
    );
  }
  return (
    <>
      <Button variant={triggerVariant} size={triggerSize} {...triggerProps}>
        {trigger}
      </Button>
      {mounted ? (
        <Suspense fallback={null}>
          <FormDialogFrame title={title} description={description} {...frameProps}>
            <CloseDialog.Provider value={() => setOpen(false)}>{children}</CloseDialog.Provider>
          </FormDialogFrame>
        </Suspense>
      ) : null}
    </>
  );
}

/** Cancel: closes the dialog, or without JavaScript leaves the inline form. */
export function FormDialogCancel() {
  const hydrated = useHydrated();
  const location = useLocation();
  const close = useContext(CloseDialog);
  return hydrated ? (
    <Button type="button" variant="outline" onClick={close}>
      Cancel
    </Button>
  ) : (
    <Link to={location.pathname} className={buttonVariants({ variant: "outline" })}>
      Cancel
    </Link>
  );
}
