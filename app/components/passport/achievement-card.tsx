import BadgeCheck from "lucide-react/icons/badge-check";
import Play from "lucide-react/icons/play";
import { Suspense, useState, type ReactNode } from "react";
import { Badge } from "#app/components/ui/badge.tsx";
import { IssuerIdentityLine } from "#app/components/credentials/issuer-identity.tsx";
import { formatLongDate } from "#app/utils/dates.ts";
import { issuerIdentityOf } from "#app/utils/issuer-identity.ts";
import { LoadAtOnce, lazyAfterInteraction } from "#app/utils/after-interaction.tsx";
import { CardNotes as CardNotesNow } from "./achievement-card-notes.tsx";
import type { PassportAchievement } from "./types.ts";
import { ACHIEVEMENT_TYPE_LABELS } from "#app/utils/achievement-types.ts";

const DEFAULT_ORGANISATION_LABEL = "Organization";

export function AchievementCard({
  achievement,
  priority = false,
  footer,
}: {
  achievement: PassportAchievement;
  /** The first card on screen loads its media eagerly; the rest wait until scrolled near. */
  priority?: boolean;
  /** What a page adds below the text (the public passport's endorsements). */
  footer?: ReactNode;
}) {
  const imported = Boolean(achievement.importStatus);
  // Who stands behind the giver's name: an organisation's credential, or an imported one's issuer.
  const identity =
    imported || (achievement.credentialId && !achievement.isMembership) ? issuerIdentityOf(achievement) : null;
  // An imported credential earns the mark only when its issuer is established (issue 43): one of
  // our organisations with a verified domain, or a domain its DID configuration links to it.
  const verified =
    Boolean(achievement.credentialId) || (achievement.importStatus === "verified" && Boolean(identity?.verifiedDomain));
  const { title, company } = achievement.isSelf
    ? splitSelfTitle(achievement.title)
    : achievement.isMembership
      ? { title: membershipHeading(achievement.title, achievement.date, achievement.membershipEndedOn), company: null }
      : { title: achievement.title, company: achievement.organizationName ?? DEFAULT_ORGANISATION_LABEL };
  return (
    <article className="overflow-hidden rounded-xl border bg-card text-card-foreground shadow-sm print:break-inside-avoid print:shadow-none">
      {/* Paper gets the text of a CV, not photos and video frames. */}
      <div className="print:hidden">
        <AchievementMedia achievement={achievement} priority={priority} />
      </div>
      <div className="space-y-2 p-4 sm:p-5">
        <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
          <Badge variant={achievement.isSelf ? "outline" : "default"}>
            {imported
              ? IMPORTED_LABEL
              : achievement.isSelf
                ? "Self Achievement"
                : achievement.isMembership
                  ? "Membership"
                  : ACHIEVEMENT_TYPE_LABELS[achievement.type]}
          </Badge>
          {imported ? <Badge variant="outline">{ACHIEVEMENT_TYPE_LABELS[achievement.type]}</Badge> : null}
          <time dateTime={achievement.date}>{formatLongDate(achievement.date)}</time>
          {achievement.importStatus === "expired" ? <Badge variant="outline">Expired</Badge> : null}
          {achievement.isMembership ? (
            <Suspense fallback={<LoadAtOnce />}>
              <CardNotes achievement={achievement} note="anniversary" />
            </Suspense>
          ) : null}
        </div>
        {achievement.validUntil || achievement.renewalCount ? (
          <Suspense fallback={<LoadAtOnce />}>
            <CardNotes achievement={achievement} note="expiry" />
          </Suspense>
        ) : null}
        <h3 className="text-lg leading-snug font-semibold break-words">
          {title}
          {achievement.isMembership && achievement.credentialId ? (
            <BadgeCheck
              className="ml-1.5 inline size-4 align-[-0.125em] text-primary"
              aria-label="Verified credential"
              role="img"
            />
          ) : null}
        </h3>
        {company ? (
          <p className="flex items-center gap-1.5 text-sm font-medium text-muted-foreground">
            <span className="break-words">{company}</span>
            {/* Only a signed, unrevoked credential earns the mark (decision 020); a self-named company never does. */}
            {verified ? (
              <BadgeCheck className="size-4 shrink-0 text-primary" aria-label="Verified credential" role="img" />
            ) : null}
          </p>
        ) : null}
        {/* A membership entry has no organization_id, which the identity columns read. */}
        {identity ? <IssuerIdentityLine identity={identity} compact imported={imported} /> : null}
        {imported ? (
          <Suspense fallback={<LoadAtOnce />}>
            <CardNotes achievement={achievement} note="import" />
          </Suspense>
        ) : null}
        {achievement.description ? (
          <p className="text-sm leading-relaxed break-words whitespace-pre-line">{achievement.description}</p>
        ) : null}
        {footer}
      </div>
    </article>
  );
}

export const IMPORTED_LABEL = "Imported credential";

// The lines only memberships, expiring or renewed entries and imported badges carry: rendered on
// the server, their chunk loaded after the first interaction where the card hydrates (/passport's
// first load budget).
const CardNotes = import.meta.env.SSR
  ? CardNotesNow
  : lazyAfterInteraction(() =>
      import("./achievement-card-notes.tsx").then((module) => ({ default: module.CardNotes })),
    );

/** 'Member of {organisation}' while it lasts; 'Member of {organisation}, {from} – {to}' once ended. */
export function membershipHeading(title: string, from: string, endedOn: string | null | undefined) {
  return endedOn ? `${title}, ${formatLongDate(from)} – ${formatLongDate(endedOn)}` : title;
}

/**
 * A self achievement is stored as 'title - company' (spec section 3): the company is what follows
 * the last ' - ' (a title may hold one itself). An old row without one shows as a title only.
 */
export function splitSelfTitle(stored: string) {
  const at = stored.lastIndexOf(" - ");
  return at > 0
    ? { title: stored.slice(0, at), company: stored.slice(at + 3) || null }
    : { title: stored, company: null };
}

function AchievementMedia({ achievement, priority }: { achievement: PassportAchievement; priority: boolean }) {
  const [playing, setPlaying] = useState(false);
  if (achievement.videoUrl) {
    return (
      <div className="relative aspect-video bg-muted">
        <video
          className="size-full object-cover"
          src={achievement.videoUrl}
          poster={achievement.imageUrl ?? undefined}
          controls
          preload="none"
          playsInline
          width={640}
          height={360}
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
          aria-label={`Video: ${achievement.title}`}
        />
        {playing ? null : (
          <span className="pointer-events-none absolute inset-0 grid place-items-center" aria-hidden>
            <span className="grid size-14 place-items-center rounded-full bg-black/55 text-white">
              <Play className="size-6 translate-x-0.5" />
            </span>
          </span>
        )}
      </div>
    );
  }
  if (achievement.imageUrl) {
    return (
      <img
        src={achievement.imageUrl}
        srcSet={achievement.imageSrcSet}
        sizes={achievement.imageSrcSet ? "(min-width: 48rem) 44rem, calc(100vw - 5rem)" : undefined}
        alt=""
        width={640}
        height={360}
        className="aspect-video w-full bg-muted object-cover"
        loading={priority ? "eager" : "lazy"}
        decoding="async"
        {...{ fetchpriority: priority ? "high" : "auto" }}
      />
    );
  }
  return null;
}
