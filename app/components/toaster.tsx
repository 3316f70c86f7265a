import { useEffect, useSyncExternalStore } from "react";
import {
  Toast,
  ToastClose,
  ToastDescription,
  ToastProvider,
  ToastTitle,
  ToastViewport,
} from "#app/components/ui/toast.tsx";
import type { Toast as ToastMessage } from "#app/utils/cookies.server.ts";
import { usePageToast } from "#app/utils/form-reply.ts";
import { useHydrated } from "#app/utils/use-hydrated.ts";

export const TOAST_DURATION_MS = 5000;

// One toast at a time: a new one replaces whatever is showing.
type ShownToast = ToastMessage & { id: number };
let current: ShownToast | null = null;
let sequence = 0;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export function showToast(message: ToastMessage) {
  current = { ...message, id: ++sequence };
  emit();
}

function dismissToast(id: number) {
  if (current?.id !== id) return;
  current = null;
  emit();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function Toaster() {
  const toast = usePageToast();
  const hydrated = useHydrated();
  const shown = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );

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
