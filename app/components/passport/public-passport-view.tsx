import { Link } from "@remix-run/react";
import ChevronDown from "lucide-react/icons/chevron-down";
import Printer from "lucide-react/icons/printer";
import UserRound from "lucide-react/icons/user-round";
import { useState, type ReactNode } from "react";
import { Avatar, AvatarFallback, AvatarImage } from "#app/components/ui/avatar.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "#app/components/ui/dialog.tsx";
import { PUBLIC_PASSPORT_INITIAL_ENTRIES } from "#app/utils/constants.ts";
import { PopoverDialog } from "#app/components/ui/popover-dialog.tsx";
import { useHydrated } from "#app/utils/use-hydrated.ts";
import { AchievementCard } from "./achievement-card.tsx";
import { CardEndorsements } from "./card-endorsements.tsx";
import { IntroVideo } from "./intro-video.tsx";
import type { PassportAchievement, PassportProfile } from "./types.ts";

const FALLBACK_NAME = "Professional";

/**
 * The public passport: profile, timeline and call to action. Used by /passport/{userId} (its
 * first entries, the paged full list and the print view) and by the landing page's demo, so all
 * always look the same.
 */
export function PublicPassportView({
  profile,
  achievements,
  total = achievements.length,
  showAllHref,
  showAll = false,
  headingLevel = 1,
  avatarDialog,
  canonicalUrl,
  pager,
  printHref,
  endorseHref,
  endorsementsHref,
  variant = "page",
}: {
  profile: PassportProfile;
  /** The entries loaded so far; the first 8 show until the visitor asks for more. */
  achievements: PassportAchievement[];
  total?: number;
  /** Where "View More Achievements" leads when the rest is not loaded yet (and without JS). */
  showAllHref: string;
  /** Start expanded, as after following the "View More" link without JavaScript. */
  showAll?: boolean;
  headingLevel?: 1 | 2;
  /** The owner's upload controls replace the visitor's view inside the avatar dialog. */
  avatarDialog?: ReactNode;
  /** The passport's address, printed on paper so a reader can check it online. */
  canonicalUrl?: string;
  /** Previous and next pages of the full list (`showAll` shows one page of it). */
  pager?: ReactNode;
  /** The print view with every entry, offered to anyone reading a part of the passport. */
  printHref?: string;
  /** The endorse page of an entry, offered to every visitor (decision 072); none on the demo. */
  endorseHref?: (achievementId: string) => string;
  /** An entry's endorsements page, past the few its card carries (decision 079). */
  endorsementsHref?: (achievementId: string) => string;
  /** "print": every entry on one page for paper, without the call to action. */
  variant?: "page" | "print";
}) {
  const [revealed, setRevealed] = useState(false);
  const expanded = showAll || revealed;
  const name = profile.fullName?.trim() || FALLBACK_NAME;
  const NameHeading = headingLevel === 1 ? "h1" : "h2";
  const visible = expanded ? achievements : achievements.slice(0, PUBLIC_PASSPORT_INITIAL_ENTRIES);
  // On paper every loaded entry shows: a short passport's are all loaded (PRINTED_ENTRIES_MAX).
  const printedOnly = expanded ? [] : achievements.slice(PUBLIC_PASSPORT_INITIAL_ENTRIES);
  // More entries than this page shows: on another page of the full list, or not loaded yet.
  const hasMore = total > visible.length;
  const printedAll = visible.length + printedOnly.length >= total;
  const offerMore = hasMore && !showAll;
  // Public pages are served without scripts: the profile dialog then opens through the
  // browser's Popover API; once hydrated (the owner's page), it is the radix Dialog.
  const hydrated = useHydrated();
  const avatar = (
    <Avatar className="size-24 border-4 border-background shadow-md sm:size-28">
      {profile.avatarUrl ? <AvatarImage src={profile.avatarUrl} alt="" width={112} height={112} /> : null}
      <AvatarFallback className="text-2xl font-semibold">{initials(name)}</AvatarFallback>
    </Avatar>
  );
  const dialogTitle = avatarDialog ? "Profile & Introduction" : name;
  const dialogDescription = profile.bio && !avatarDialog ? profile.bio : null;
  const dialogBody = avatarDialog ?? (
    <IntroVideo
      url={profile.introVideoUrl}
      thumbnailUrl={profile.introVideoThumbnailUrl}
      emptyText="No introduction video yet"
    />
  );

  return (
    <div className="mx-auto w-full max-w-3xl">
      <header className="flex flex-col items-center gap-4 text-center">
        {hydrated ? (
          <Dialog>
            <DialogTrigger asChild>
              <button type="button" className="rounded-full" aria-label={`Open profile of ${name}`}>
                {avatar}
              </button>
            </DialogTrigger>
            <DialogContent>
              <DialogHeader>
                <DialogTitle>{dialogTitle}</DialogTitle>
                {dialogDescription ? <DialogDescription>{dialogDescription}</DialogDescription> : null}
              </DialogHeader>
              {dialogBody}
            </DialogContent>
          </Dialog>
        ) : (
          <PopoverDialog
            id="profile-dialog"
            triggerLabel={`Open profile of ${name}`}
            triggerClassName="rounded-full"
            trigger={avatar}
            title={dialogTitle}
            description={dialogDescription}
          >
            {dialogBody}
          </PopoverDialog>
        )}
        <div className="space-y-2">
          <NameHeading className="text-3xl font-bold tracking-tight break-words sm:text-4xl">{name}</NameHeading>
          {profile.bio ? (
            <p className="mx-auto max-w-xl break-words whitespace-pre-line text-muted-foreground">{profile.bio}</p>
          ) : null}
        </div>
        {profile.introVideoUrl ? (
          <div className="w-full max-w-xl print:hidden">
            <IntroVideo url={profile.introVideoUrl} thumbnailUrl={profile.introVideoThumbnailUrl} />
          </div>
        ) : null}
      </header>

      <section aria-label="Achievements" className="print-urls mt-10 print:mt-6">
        {visible.length === 0 ? (
          <div className="rounded-xl border border-dashed p-10 text-center">
            <UserRound className="mx-auto size-10 text-muted-foreground" aria-hidden />
            <p className="mt-3 font-medium">No achievements yet</p>
            <p className="text-sm text-muted-foreground">Start adding your professional story</p>
          </div>
        ) : (
          <ol className="relative space-y-6 border-l-2 border-border pl-6 sm:pl-8">
            {[...visible, ...printedOnly].map((achievement, index) => (
              <li
                key={achievement.id}
                className={
                  index < visible.length
                    ? "relative print:break-inside-avoid"
                    : "relative hidden print:block print:break-inside-avoid"
                }
              >
                <span
                  className="absolute top-6 -left-[calc(1.5rem+7px)] size-3 rounded-full border-2 border-background bg-primary sm:-left-[calc(2rem+7px)]"
                  aria-hidden
                />
                <AchievementCard
                  achievement={achievement}
                  priority={index === 0}
                  footer={
                    variant === "page" ? (
                      <CardEndorsements
                        achievement={achievement}
                        endorseHref={endorseHref?.(achievement.id)}
                        allHref={endorsementsHref?.(achievement.id)}
                      />
                    ) : null
                  }
                />
              </li>
            ))}
          </ol>
        )}
        {pager}
        {!printedAll && canonicalUrl ? (
          <p className="mt-6 hidden text-sm print:block">
            {`${total - visible.length - printedOnly.length} more achievements: ${canonicalUrl}/print`}
          </p>
        ) : null}
        {printHref && variant === "page" ? (
          <div className="mt-6 flex justify-center print:hidden">
            <Link to={printHref} reloadDocument className={buttonVariants({ variant: "ghost", size: "sm" })}>
              <Printer aria-hidden /> Print or save as PDF
            </Link>
          </div>
        ) : null}
        {offerMore ? (
          <div className="mt-8 flex justify-center print:hidden">
            <Link
              to={showAllHref}
              preventScrollReset
              onClick={(event) => {
                // Everything is already here: reveal it without a round trip.
                if (achievements.length >= total) {
                  event.preventDefault();
                  setRevealed(true);
                }
              }}
              className={buttonVariants({ variant: "outline" })}
            >
              View More Achievements
              <ChevronDown aria-hidden />
            </Link>
          </div>
        ) : null}
      </section>

      {canonicalUrl ? (
        <p className="mt-8 hidden border-t pt-4 text-sm print:block">
          {name}&apos;s career passport, kept up to date at {canonicalUrl}
        </p>
      ) : null}

      {variant === "print" ? null : (
        <section className="mt-14 rounded-2xl border bg-card p-6 text-center shadow-sm sm:p-10 print:hidden">
          <h2 className="text-2xl font-semibold tracking-tight">Ready to build your professional story?</h2>
          <p className="mt-2 text-muted-foreground">
            Keep every award, course and milestone in one passport that goes wherever your career does.
          </p>
          <Link to="/auth?mode=signup" className={buttonVariants({ size: "lg", className: "mt-6" })}>
            Create Your Passport
          </Link>
        </section>
      )}
    </div>
  );
}

/** What a passport's pages show when it is unknown, private or archived (with a 404). */
export function PassportNotFound() {
  return (
    <div className="mx-auto max-w-md py-16 text-center">
      <h1 className="text-2xl font-bold tracking-tight">Passport not found</h1>
      <p className="mt-2 text-muted-foreground">This passport doesn&apos;t exist or is not public.</p>
      <Link to="/" className={buttonVariants({ className: "mt-6" })}>
        Go Home
      </Link>
    </div>
  );
}

function initials(name: string) {
  return (
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]?.toUpperCase())
      .join("") || "?"
  );
}
