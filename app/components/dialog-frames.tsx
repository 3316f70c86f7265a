import type { ReactNode } from "react";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "#app/components/ui/alert-dialog.tsx";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "#app/components/ui/dialog.tsx";

// The dialogs' radix frames, one lazy chunk loaded when a dialog's trigger is first pointed at,
// focused or pressed (lazy-dialog.tsx, docs/decisions/035). Each is controlled: the light module
// that renders the trigger owns `open`.

export type FrameProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Focus back to the trigger, which radix does not own here. */
  onCloseAutoFocus: (event: Event) => void;
};

/** A form in a dialog (form-dialog.tsx). */
export function FormDialogFrame({
  title,
  description,
  children,
  ...frame
}: FrameProps & { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <Dialog open={frame.open} onOpenChange={frame.onOpenChange}>
      <DialogContent onCloseAutoFocus={frame.onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          {description ? <DialogDescription>{description}</DialogDescription> : null}
        </DialogHeader>
        {children}
      </DialogContent>
    </Dialog>
  );
}

/** A destructive action's confirmation (confirm-action.tsx); `children` is its confirming form. */
export function ConfirmDialogFrame({
  title,
  description,
  children,
  ...frame
}: FrameProps & { title: string; description: ReactNode; children: ReactNode }) {
  return (
    <AlertDialog open={frame.open} onOpenChange={frame.onOpenChange}>
      <AlertDialogContent onCloseAutoFocus={frame.onCloseAutoFocus}>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription asChild>
            <div>{description}</div>
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          {/* A plain submit: the dialog goes when the page moves on, not before the post is sent. */}
          {children}
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** The signed-in navigation as a slide-over panel on phones (app-shell.tsx). */
export function NavigationDialogFrame({ children, ...frame }: FrameProps & { children: ReactNode }) {
  return (
    <Dialog open={frame.open} onOpenChange={frame.onOpenChange}>
      <DialogContent
        onCloseAutoFocus={frame.onCloseAutoFocus}
        className="top-0 left-0 flex h-dvh max-h-dvh w-72 max-w-[85vw] translate-x-0 translate-y-0 flex-col rounded-none border-r p-0 sm:rounded-none"
      >
        <DialogTitle className="sr-only">Navigation</DialogTitle>
        <DialogDescription className="sr-only">Pages, organisation and account</DialogDescription>
        {children}
      </DialogContent>
    </Dialog>
  );
}
