import Check from "lucide-react/icons/check";
import Copy from "lucide-react/icons/copy";
import { useEffect, useState } from "react";
import { showToast } from "#app/utils/toast.ts";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import type { Toast } from "#app/utils/toast-message.ts";

const COPIED_FEEDBACK_MS = 2000;

/** A read-only link or value (selectable without JavaScript) and a Copy button that says Copied for 2s. */
export function CopyLink({
  url,
  label,
  toast,
  buttonLabel = "Copy Link",
}: {
  url: string;
  label: string;
  toast: Toast;
  buttonLabel?: string;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  return (
    <div className="flex gap-2">
      <Input readOnly value={url} aria-label={label} onFocus={(event) => event.currentTarget.select()} />
      <Button
        type="button"
        variant="outline"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(url);
            setCopied(true);
            showToast(toast);
          } catch {
            showToast({
              title: "Error",
              description: "Could not copy. Select the link and copy it.",
              variant: "destructive",
            });
          }
        }}
      >
        {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
        {copied ? "Copied" : buttonLabel}
      </Button>
    </div>
  );
}
