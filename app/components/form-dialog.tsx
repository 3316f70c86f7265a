import { Link, useLocation } from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";
import { Button, type ButtonProps } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "#app/components/ui/dialog.tsx";
import { useHydrated } from "#app/utils/use-hydrated.ts";

/**
 * A form in a dialog. Without JavaScript the trigger is a link to `openHref` and the form shows
 * inline there. The dialog reopens when the server refused the form (`failed`) and closes after
 * a successful submit (which redirects to a new location).
 */
export function FormDialog({
  title,
  description,
  trigger,
  triggerVariant,
  triggerSize,
  openHref,
  failed,
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
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(false), [location.key]);
  useEffect(() => {
    if (failed) setOpen(true);
  }, [failed]);

  if (!hydrated) {
    if (location.pathname + location.search !== openHref) {
      return (
        <Button asChild variant={triggerVariant} size={triggerSize}>
          <Link to={openHref}>{trigger}</Link>
        </Button>
      );
    }
    return (
      <Card className="w-full">
        <CardHeader>
          <CardTitle as="h2">{title}</CardTitle>
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
    );
  }
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant={triggerVariant} size={triggerSize}>
          {trigger}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          {description ? <DialogDescription>{description}</DialogDescription> : null}
        </DialogHeader>
        {children}
      </DialogContent>
    </Dialog>
  );
}

/** Cancel: closes the dialog, or without JavaScript leaves the inline form. */
export function FormDialogCancel() {
  const hydrated = useHydrated();
  const location = useLocation();
  return hydrated ? (
    <DialogClose asChild>
      <Button type="button" variant="outline">
        Cancel
      </Button>
    </DialogClose>
  ) : (
    <Button asChild variant="outline">
      <Link to={location.pathname}>Cancel</Link>
    </Button>
  );
}
