import {
  Toast,
  ToastClose,
  ToastDescription,
  ToastProvider,
  ToastTitle,
  ToastViewport,
} from "#app/components/ui/toast.tsx";
import { dismissToast, type ShownToast } from "#app/utils/toast.ts";

const TOAST_DURATION_MS = 5000;

/**
 * The toast as radix shows it: announced, dismissed by swipe, F8 or its close button, gone after
 * five seconds. Its own chunk, loaded with the first toast of a visit (toaster.tsx,
 * docs/decisions/035).
 */
export default function LiveToaster({ shown }: { shown: ShownToast | null }) {
  return (
    <ToastProvider duration={TOAST_DURATION_MS} swipeDirection="right">
      {shown ? (
        <Toast
          key={shown.id}
          // A toast with somewhere to go stays until dismissed: five seconds is too short to follow it.
          duration={shown.link ? Infinity : undefined}
          variant={shown.variant ?? "default"}
          onOpenChange={(open) => {
            if (!open) dismissToast(shown.id);
          }}
        >
          <div className="grid gap-1">
            <ToastTitle>{shown.title}</ToastTitle>
            {shown.description ? <ToastDescription>{shown.description}</ToastDescription> : null}
            {shown.link ? (
              <a href={shown.link.href} className="text-sm font-medium underline">
                {shown.link.label}
              </a>
            ) : null}
          </div>
          <ToastClose />
        </Toast>
      ) : null}
      <ToastViewport />
    </ToastProvider>
  );
}
