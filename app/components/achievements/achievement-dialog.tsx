import { useLocation } from "@remix-run/react";
import { lazy, type ReactNode } from "react";
import { FormDialog } from "#app/components/form-dialog.tsx";
import { useFormReply } from "#app/utils/form-reply.ts";
import { AchievementForm as AchievementFormNow, type Member } from "./achievement-form.tsx";

const loadAchievementForm = () => import("./achievement-form.tsx");
/**
 * The form, with Conform's form state and the media fields, loads with the dialog's first opening
 * in the browser (docs/decisions/039); the server renders it at once, for the page without
 * JavaScript (a build-time constant: the browser's bundle has no static import of it).
 */
const AchievementForm = import.meta.env.SSR
  ? AchievementFormNow
  : lazy(() => loadAchievementForm().then((module) => ({ default: module.AchievementForm })));

/**
 * The Add Achievement dialog (an admin giving, or a person adding their own). Without
 * JavaScript the trigger links to ?add={id} and the same form shows inline.
 */
export function AchievementDialog({
  kind,
  id,
  trigger,
  members = [],
  defaultUserId,
}: {
  kind: "give" | "self";
  id: string;
  trigger: ReactNode;
  members?: Member[];
  defaultUserId?: string;
}) {
  const location = useLocation();
  const mine = useFormReply(id);
  return (
    <FormDialog
      title={kind === "give" ? "Add Achievement" : "Add Self Achievement"}
      description={
        kind === "give"
          ? "The person accepts it before it shows on their passport."
          : "It goes straight onto your passport."
      }
      trigger={trigger}
      triggerSize="sm"
      triggerVariant={kind === "give" ? "outline" : "default"}
      openHref={`${location.pathname}?add=${encodeURIComponent(id)}`}
      failed={mine !== undefined}
      prefetch={loadAchievementForm}
    >
      <AchievementForm kind={kind} formId={id} actionData={mine} members={members} defaultUserId={defaultUserId} />
    </FormDialog>
  );
}
