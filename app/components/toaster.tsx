import { lazy, Suspense, useEffect, useState } from "react";
import { noteInteraction } from "#app/utils/first-interaction.ts";
import { usePageToast } from "#app/utils/form-reply.ts";
import { useHydrated } from "#app/utils/use-hydrated.ts";
import { showToast, useShownToast } from "#app/utils/toast.ts";
import type { Toast as ToastMessage } from "#app/utils/toast-message.ts";

const LiveToaster = lazy(() => import("./live-toaster.tsx"));

/**
 * The one place toasts show. Without JavaScript (and until hydration) the page's toast is a plain
 * status message; after hydration radix's toaster (live-toaster.tsx) takes over, loaded only when
 * a visit has something to show, so a page without a toast never loads it (docs/decisions/035).
 */
export function Toaster() {
  const toast = usePageToast();
  const hydrated = useHydrated();
  const shown = useShownToast();
  // Once loaded, radix's toaster stays mounted: it animates a toast out and keeps its viewport.
  const [live, setLive] = useState(false);

  // The page's toast: a flash toast set before a redirect, a failed action's, a loader's.
  useEffect(() => {
    if (toast) showToast(toast);
  }, [toast]);
  useEffect(() => {
    if (!shown) return;
    setLive(true);
    // radix registers its viewport in a transition, and a transition cannot commit while a part of
    // the page that hydrates on first use (decision 049) still waits: until someone touched the
    // page, a toast after a document load (a form posted before hydration, a redirect) stayed
    // hidden. Showing a toast counts as that first use, so those parts load and hydrate now.
    noteInteraction();
  }, [shown]);

  if (!hydrated) return toast ? <StatusToast toast={toast} /> : null;
  if (!shown && !live) return null;
  return (
    // While the chunk arrives the toast shows as it does without JavaScript.
    <Suspense fallback={shown ? <StatusToast toast={shown} /> : null}>
      <LiveToaster shown={shown} />
    </Suspense>
  );
}

function StatusToast({ toast }: { toast: ToastMessage }) {
  return (
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
      {toast.link ? (
        <a href={toast.link.href} className="text-sm font-medium underline">
          {toast.link.label}
        </a>
      ) : null}
    </div>
  );
}
