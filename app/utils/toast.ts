import { useSyncExternalStore } from "react";
import type { Toast as ToastMessage } from "./toast-message.ts";

// The browser's toast store: one toast at a time, a new one replaces whatever is showing. Any
// module may call showToast; the Toaster component (in the root) is the only one that shows it.

export type ShownToast = ToastMessage & { id: number };
let current: ShownToast | null = null;
let sequence = 0;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export function showToast(message: ToastMessage) {
  current = { ...message, id: ++sequence };
  emit();
}

export function dismissToast(id: number) {
  if (current?.id !== id) return;
  current = null;
  emit();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The toast showing now (none during server rendering). */
export function useShownToast() {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}
