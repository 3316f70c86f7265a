import Download from "lucide-react/icons/download";
import { ConfirmAction } from "#app/components/confirm-action.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";

// The actions of an imported credential on the person's own /passport (decision 069): its
// original file, and deleting it. A lazy chunk (/passport's first load budget): the server's
// markup works as plain HTML until it arrives.

export function ImportActions({ achievementId, title }: { achievementId: string; title: string }) {
  return (
    <div className="flex flex-wrap items-center justify-end gap-2">
      <a
        href={`/passport/imports/${achievementId}/original`}
        className={buttonVariants({ size: "sm", variant: "ghost" })}
        aria-label={`Download the original file: ${title}`}
      >
        <Download aria-hidden /> Original file
      </a>
      <ConfirmAction
        id={`delete-import-${achievementId}`}
        intent="delete-import"
        fields={{ achievementId }}
        trigger="Delete"
        triggerSize="sm"
        triggerVariant="ghost"
        title="Delete this imported credential?"
        description="It leaves your passport, and its original file is deleted. You can import it again."
        confirm="Delete"
      />
    </div>
  );
}
