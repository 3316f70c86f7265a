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

export function Toaster({ flash }: { flash: ToastMessage | null }) {
  const hydrated = useHydrated();
  const shown = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );

  // A toast set by the server before a redirect arrives with the next page's root data.
  useEffect(() => {
    if (flash) showToast(flash);
  }, [flash]);

  // Without JavaScript the flash toast still shows, as a plain status message.
  if (!hydrated) {
    return flash ? (
      <div
        role="status"
        className={
          "fixed right-4 bottom-4 z-[100] w-[calc(100%-2rem)] max-w-[420px] rounded-md border p-4 shadow-lg " +
          (flash.variant === "destructive"
            ? "border-destructive bg-destructive text-destructive-foreground"
            : "bg-card text-card-foreground")
        }
      >
        <p className="text-sm font-semibold">{flash.title}</p>
        {flash.description ? <p className="text-sm opacity-90">{flash.description}</p> : null}
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
