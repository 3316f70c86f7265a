import MessageSquareQuote from "lucide-react/icons/message-square-quote";
import { PopoverDialog } from "#app/components/ui/popover-dialog.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import type { PassportAchievement, PassportEndorsement } from "./types.ts";

/** 'Endorsed by N': the card's button, its dialog's title and the entry's endorsements page's heading. */
export const endorsedByLabel = (count: number) => `Endorsed by ${count}`;

/**
 * A public card's endorsements (decision 072): 'Endorsed by N', opening a dialog of who said what
 * (the browser's Popover API: the page has no scripts for visitors), and an 'Endorse' link to the
 * endorse page, the same for every visitor so the cached page stays impersonal. The card carries
 * its first few endorsements; past those, the dialog links to the entry's endorsements page
 * (decision 079).
 */
export function CardEndorsements({
  achievement,
  endorseHref,
  allHref,
}: {
  achievement: Pick<PassportAchievement, "id" | "title" | "endorsements" | "endorsementCount">;
  endorseHref?: string;
  /** The entry's endorsements page, where every one is listed. */
  allHref?: string;
}) {
  const endorsements = achievement.endorsements ?? [];
  if (endorsements.length === 0 && !endorseHref) return null;
  const count = achievement.endorsementCount ?? endorsements.length;
  const label = endorsedByLabel(count);
  return (
    <div className="flex flex-wrap items-center gap-2 pt-1 print:hidden">
      {endorsements.length > 0 ? (
        <PopoverDialog
          id={`endorsements-${achievement.id}`}
          triggerLabel={`${label}: ${achievement.title}`}
          trigger={
            <>
              <MessageSquareQuote aria-hidden /> {label}
            </>
          }
          triggerClassName={buttonVariants({ variant: "outline", size: "sm" })}
          title={label}
          description={achievement.title}
        >
          <EndorsementList endorsements={endorsements} />
          {count > endorsements.length && allHref ? (
            <a href={allHref} className={buttonVariants({ variant: "outline", size: "sm", className: "mt-4" })}>
              {`See all ${count} endorsements`}
            </a>
          ) : null}
        </PopoverDialog>
      ) : null}
      {endorseHref ? (
        <a
          href={endorseHref}
          rel="nofollow"
          aria-label={`Endorse ${achievement.title}`}
          className={buttonVariants({ variant: "ghost", size: "sm" })}
        >
          Endorse
        </a>
      ) : null}
    </div>
  );
}

/**
 * Whether a person or an organisation endorsed, and an organisation's verified domain (issue 43):
 * an endorser's name alone is what they typed.
 */
export function endorserText({ byOrganization, domain }: Pick<PassportEndorsement, "byOrganization" | "domain">) {
  if (!byOrganization) return "Person";
  return domain ? `Organisation, domain verified: ${domain}` : "Organisation, domain not verified";
}

/** Who endorsed an entry and what they said, each with its signed credential. */
export function EndorsementList({ endorsements }: { endorsements: PassportEndorsement[] }) {
  return (
    <ul className="grid gap-4">
      {endorsements.map((endorsement) => (
        <li key={endorsement.id} className="grid gap-1">
          <p className="font-medium break-words">{endorsement.name}</p>
          <p className="text-xs break-words text-muted-foreground">{endorserText(endorsement)}</p>
          <p className="text-sm break-words whitespace-pre-line text-muted-foreground">{endorsement.comment}</p>
          <a href={`/endorsements/${endorsement.id}`} className="w-fit text-xs underline underline-offset-4">
            Signed endorsement
          </a>
        </li>
      ))}
    </ul>
  );
}
