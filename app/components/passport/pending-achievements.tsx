import { Form } from "@remix-run/react";
import Check from "lucide-react/icons/check";
import X from "lucide-react/icons/x";
import { AchievementCard } from "#app/components/passport/achievement-card.tsx";
import { Pager } from "#app/components/pager.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Checkbox } from "#app/components/ui/checkbox.tsx";
import type { loadOwnAchievements } from "#db/queries/achievements/own.ts";
import type { SerializeFrom } from "@remix-run/cloudflare";

/** The query parameters of the pending list (`pending.after`), so it keeps its place beside the other list. */
export const PENDING_PREFIX = "pending.";

type Pending = SerializeFrom<Awaited<ReturnType<typeof loadOwnAchievements>>["pending"]>;

/** Achievements offered to the person, each to accept (with or without its media in the credential) or reject. */
export function PendingAchievements({ pending }: { pending: Pending }) {
  if (pending.total === 0) return null;
  return (
    <section aria-labelledby="pending-title" className="grid gap-4">
      <h2 id="pending-title" className="text-xl font-semibold">
        Pending Achievements
      </h2>
      <ul className="grid gap-4" aria-label="Pending achievements">
        {pending.items.map((achievement) => (
          <li key={achievement.id} className="grid gap-2">
            <AchievementCard achievement={achievement} />
            <Form method="post" className="flex flex-wrap items-center justify-end gap-2">
              <input type="hidden" name="achievementId" value={achievement.id} />
              {achievement.imageUrl || achievement.videoUrl ? (
                <label className="mr-auto flex items-center gap-2 text-sm">
                  <Checkbox name="includeMedia" />
                  Include the picture or video in my credential
                </label>
              ) : null}
              <SubmitButton intent="accept" size="sm" aria-label={`Accept ${achievement.title}`}>
                <Check aria-hidden /> Accept
              </SubmitButton>
              {/* Only an organisation's achievement has a credential to issue to the wallet's key. */}
              {achievement.isSelf ? null : (
                <SubmitButton
                  intent="accept-with-wallet"
                  size="sm"
                  variant="outline"
                  aria-label={`Accept with my wallet: ${achievement.title}`}
                >
                  Accept with my wallet
                </SubmitButton>
              )}
              <SubmitButton intent="reject" size="sm" variant="outline" aria-label={`Reject ${achievement.title}`}>
                <X aria-hidden /> Reject
              </SubmitButton>
            </Form>
          </li>
        ))}
      </ul>
      <Pager
        prefix={PENDING_PREFIX}
        label="Pending achievements pages"
        shown={pending.items.length}
        total={pending.total}
        noun="pending achievements"
        previous={pending.previous}
        next={pending.next}
      />
    </section>
  );
}
