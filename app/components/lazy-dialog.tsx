import { lazy, useCallback, useRef, useState } from "react";

// Dialogs whose radix frame (dialog-frames.tsx) loads on first interaction: a signed-in page shows
// many triggers and rarely opens one, so radix's dialog, focus trap and scroll lock stay out of
// its first load (docs/decisions/035). The trigger is a plain button that looks the same; the
// frame mounts when it is pressed, and a fixed overlay moves nothing on the page.

export const loadDialogFrames = () => import("./dialog-frames.tsx");
export const FormDialogFrame = lazy(() => loadDialogFrames().then((frames) => ({ default: frames.FormDialogFrame })));
export const ConfirmDialogFrame = lazy(() =>
  loadDialogFrames().then((frames) => ({ default: frames.ConfirmDialogFrame })),
);
export const NavigationDialogFrame = lazy(() =>
  loadDialogFrames().then((frames) => ({ default: frames.NavigationDialogFrame })),
);

/**
 * A lazily framed dialog's state: `open`, whether the frame is `mounted` (from the first opening
 * on, so it can animate out), the props for its trigger button and for its frame. A new `closeOn`
 * (the location's key: the page moved on, or an action redirected back to it) closes it.
 */
export function useLazyDialog({
  onOpenChange,
  closeOn,
  prefetch: prefetchContent,
}: {
  onOpenChange?: (open: boolean) => void;
  closeOn: unknown;
  /** Loads what the dialog shows, when that is a lazy chunk of its own (a form: form-dialog.tsx). */
  prefetch?: () => Promise<unknown>;
}) {
  const [open, setOpenState] = useState(false);
  const [mounted, setMounted] = useState(false);
  const [openedAt, setOpenedAt] = useState(closeOn);
  if (openedAt !== closeOn) {
    // Adjusted while rendering, as a remount would: no effect, no onOpenChange.
    setOpenedAt(closeOn);
    if (open) setOpenState(false);
  }
  const triggerRef = useRef<HTMLButtonElement>(null);
  const setOpen = useCallback(
    (value: boolean) => {
      if (value) setMounted(true);
      setOpenState(value);
      onOpenChange?.(value);
    },
    [onOpenChange],
  );
  const prefetch = () => {
    void loadDialogFrames();
    void prefetchContent?.();
  };
  return {
    open,
    mounted,
    setOpen,
    triggerProps: {
      ref: triggerRef,
      "aria-haspopup": "dialog" as const,
      "aria-expanded": open,
      onPointerEnter: prefetch,
      onFocus: prefetch,
      onClick: () => setOpen(true),
    },
    frameProps: {
      open,
      onOpenChange: setOpen,
      onCloseAutoFocus: (event: Event) => {
        event.preventDefault();
        triggerRef.current?.focus();
      },
    },
  };
}
