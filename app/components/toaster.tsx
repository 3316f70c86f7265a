import { useEffect } from "react";
import {
  Toast,
  ToastClose,
  ToastDescription,
  ToastProvider,
  ToastTitle,
  ToastViewport,
} from "#app/components/ui/toast.tsx";
import { usePageToast } from "#app/utils/form-reply.ts";
import { useHydrated } from "#app/utils/use-hydrated.ts";
import { dismissToast, showToast, useShownToast } from "#app/utils/toast.ts";

export const TOAST_DURATION_MS = 5000;

export function Toaster() {
  const toast = usePageToast();
  const hydrated = useHydrated();
  const shown = useShownToast();

  // The page's toast: a flash toast set before a redirect, a failed action's, a loader's.
  useEffect(() => {
    if (toast) showToast(toast);
  }, [toast]);

  // Without JavaScript (and until hydration) the same toast shows as a plain status message.
  if (!hydrated) {
    return toast ? (
      <div
        role="status"
        className={
          "fixed right-4 bottom-4 z-[100] w-[calc(100%-2rem)] max-w-[420px] rounded-md border p-4 shadow-lg " +
          (toast.variant === "destructive"
            ? "border-destructive bg-destructive text-destructive-foreground"
            : "bg-card text-card-foreground")
        }
      >
        <p className="text-sm font-semibold">{toast.title}</p>
        {toast.description ? <p className="text-sm opacity-90">{toast.description}</p> : null}
      </div>
    ) : null;
  }

  return (
    <ToastProvider duration={TOAST_DURATION_MS} swipeDirection="right">
      {shown ? (
        <Toast
          key={shown.id}
          variant={shown.variant ?? "default"}
          onOpenChange={(open) => {
            if (!open) dismissToast(shown.id);
          }}
        >
          <div className="grid gap-1">
            <ToastTitle>{shown.title}</ToastTitle>
            {shown.description ? <ToastDescription>{shown.description}</ToastDescription> : null}
          </div>
          <ToastClose />
        </Toast>
      ) : null}
      <ToastViewport />
    </ToastProvider>
  );
}
