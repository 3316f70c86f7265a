import { Form, Link } from "@remix-run/react";
import ExternalLink from "lucide-react/icons/external-link";
import Eye from "lucide-react/icons/eye";
import EyeOff from "lucide-react/icons/eye-off";
import Plus from "lucide-react/icons/plus";
import { Suspense } from "react";
import { AchievementDialog } from "#app/components/achievements/achievement-dialog.tsx";
import { Pager } from "#app/components/pager.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { AchievementCard } from "#app/components/passport/achievement-card.tsx";
import { CredentialLinks as CredentialLinksNow } from "#app/components/passport/credential-links.tsx";
import { ImportActions as ImportActionsNow } from "#app/components/passport/import-actions.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { LoadAtOnce, lazyAfterInteraction } from "#app/utils/after-interaction.tsx";
import { CREDENTIAL_PREPARING } from "#app/utils/constants.ts";
import { linkedInAddToProfileUrl } from "#app/utils/linkedin.ts";
import type { loadOwnAchievements } from "#db/queries/achievements/own.ts";
import type { SerializeFrom } from "@remix-run/cloudflare";

/** The achievements list's query parameters (`achievements.before`): it keeps its place beside the pending list. */
export const ACCEPTED_PREFIX = "achievements.";

type Accepted = SerializeFrom<Awaited<ReturnType<typeof loadOwnAchievements>>["accepted"]>;

/**
 * The person's own achievements on My Passport: each shown or hidden on the public passport, with
 * its credential's links, LinkedIn's add-to-profile link and an import's actions; and the ways to
 * add more.
 */
export function OwnAchievements({
  accepted,
  origin,
  shareUrl,
}: {
  accepted: Accepted;
  origin: string;
  shareUrl: string;
}) {
  return (
    <section aria-labelledby="achievements-title" className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="achievements-title" className="text-xl font-semibold">
          Achievements
        </h2>
        <div className="flex flex-wrap gap-2">
          <Link to="/passport/import" className={buttonVariants({ variant: "outline" })}>
            Import
          </Link>
          <Link to="/passport/import-history" className={buttonVariants({ variant: "outline" })}>
            Import history
          </Link>
          <Link to="/passport/endorsements" className={buttonVariants({ variant: "outline" })}>
            Endorsements
          </Link>
          <AchievementDialog
            kind="self"
            id="self"
            trigger={
              <>
                <Plus aria-hidden /> Add Self Achievement
              </>
            }
          />
        </div>
      </div>
      {accepted.total === 0 ? (
        <div className="rounded-xl border border-dashed p-10 text-center">
          <p className="font-medium">No achievements yet</p>
          <p className="text-sm text-muted-foreground">Start adding your professional story</p>
          <p className="mt-3 text-sm">
            <Link to="/passport/import-history" className="font-medium underline underline-offset-4">
              Import your LinkedIn export or a JSON Resume
            </Link>
          </p>
        </div>
      ) : (
        <ul className="grid gap-4" aria-label="Your achievements">
          {accepted.items.map((achievement, index) => (
            <li key={achievement.id} className="grid gap-2">
              <div className={achievement.isVisible ? undefined : "opacity-60"}>
                <AchievementCard achievement={achievement} priority={index === 0} />
              </div>
              <Form method="post" className="flex flex-wrap items-center justify-end gap-2">
                {achievement.isVisible ? null : <Badge variant="outline">Hidden from your public passport</Badge>}
                {achievement.credentialId ? (
                  <Suspense fallback={<LoadAtOnce />}>
                    <CredentialLinks id={achievement.credentialId} title={achievement.title} />
                  </Suspense>
                ) : achievement.credentialPreparing ? (
                  <Badge variant="outline">{CREDENTIAL_PREPARING}</Badge>
                ) : null}
                {/* LinkedIn's add-to-profile link adds certifications: a membership is not one. */}
                {achievement.isSelf || achievement.isMembership ? null : (
                  <a
                    href={linkedInAddToProfileUrl({
                      title: achievement.title,
                      organizationName: achievement.organizationName ?? "",
                      date: achievement.date,
                      // The credential when there is one: it proves itself; else the passport.
                      url: achievement.credentialId ? `${origin}/credentials/${achievement.credentialId}` : shareUrl,
                    })}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={`Add to LinkedIn: ${achievement.title}`}
                    className={buttonVariants({ size: "sm", variant: "ghost" })}
                  >
                    <ExternalLink aria-hidden /> Add to LinkedIn
                  </a>
                )}
                <input type="hidden" name="achievementId" value={achievement.id} />
                <input type="hidden" name="visible" value={achievement.isVisible ? "false" : "true"} />
                <SubmitButton
                  intent="set-visibility"
                  size="sm"
                  variant="ghost"
                  aria-label={`${achievement.isVisible ? "Hide" : "Show"} ${achievement.title}`}
                >
                  {achievement.isVisible ? <EyeOff aria-hidden /> : <Eye aria-hidden />}
                  {achievement.isVisible ? "Hide" : "Show"}
                </SubmitButton>
              </Form>
              {achievement.importStatus ? (
                <Suspense fallback={<LoadAtOnce />}>
                  <ImportActions achievementId={achievement.id} title={achievement.title} />
                </Suspense>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {accepted.total > 0 ? (
        <Pager
          prefix={ACCEPTED_PREFIX}
          label="Your achievements pages"
          shown={accepted.items.length}
          total={accepted.total}
          noun="achievements"
          previous={accepted.previous}
          next={accepted.next}
        />
      ) : null}
    </section>
  );
}

/** An achievement's credential actions: rendered on the server, hydrated after the first interaction. */
const CredentialLinks = import.meta.env.SSR
  ? CredentialLinksNow
  : lazyAfterInteraction(() =>
      import("#app/components/passport/credential-links.tsx").then((module) => ({ default: module.CredentialLinks })),
    );

/** An imported credential's original file and deletion: rendered on the server, hydrated on first interaction. */
const ImportActions = import.meta.env.SSR
  ? ImportActionsNow
  : lazyAfterInteraction(() =>
      import("#app/components/passport/import-actions.tsx").then((module) => ({ default: module.ImportActions })),
    );
