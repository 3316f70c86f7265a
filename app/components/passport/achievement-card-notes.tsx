import { Badge } from "#app/components/ui/badge.tsx";
import { formatLongDate } from "#app/utils/dates.ts";
import { expiryText, isExpired, renewalHistoryText, todayUtc } from "#app/utils/expiry.ts";
import { anniversaryText, latestAnniversary } from "#app/utils/membership-entry.ts";
import type { PassportAchievement } from "./types.ts";

// What only a membership entry or an imported badge shows on its card (achievement-card.tsx),
// apart so that /passport's first load does not carry it.

/** A membership's latest anniversary: shown, not issued, as no new credential (decision 070). */
/** The card's note of one kind: a membership's anniversary, or what an import's checks showed. */
export function CardNotes({
  achievement,
  note,
}: {
  achievement: PassportAchievement;
  note: "anniversary" | "import" | "expiry";
}) {
  if (note === "expiry") return <ExpiryNote achievement={achievement} />;
  return note === "anniversary" ? (
    <AnniversaryBadge achievement={achievement} />
  ) : (
    <ImportStanding achievement={achievement} />
  );
}

/**
 * 'Valid until {date}', then 'Expired on {date}' (still listed, visibly expired), and a renewal's
 * history: 'Renewed 2 times, first given {date}' (decision 071).
 */
function ExpiryNote({ achievement }: { achievement: PassportAchievement }) {
  const { validUntil, renewalCount, firstGivenOn } = achievement;
  const expired = validUntil ? isExpired(validUntil, todayUtc()) : false;
  return (
    <div className="grid gap-1 text-sm">
      {validUntil ? (
        <p
          className={
            expired ? "flex flex-wrap items-center gap-2 font-medium text-destructive" : "text-muted-foreground"
          }
        >
          {expired ? <Badge variant="destructive">Expired</Badge> : null}
          <span>{expiryText(validUntil, todayUtc())}</span>
        </p>
      ) : null}
      {renewalCount && firstGivenOn ? (
        <p className="text-muted-foreground">{renewalHistoryText(renewalCount, firstGivenOn)}</p>
      ) : null}
    </div>
  );
}

function AnniversaryBadge({ achievement }: { achievement: PassportAchievement }) {
  const anniversary = latestAnniversary(
    achievement.date,
    achievement.membershipEndedOn,
    new Date().toISOString().slice(0, 10),
  );
  return anniversary ? <Badge variant="outline">{anniversaryText(anniversary)}</Badge> : null;
}

/** What an imported badge's checks showed, in words: never more than they showed (decision 069). */
function ImportStanding({ achievement }: { achievement: PassportAchievement }) {
  if (achievement.importStatus === "revoked") {
    const on = achievement.importRevokedAt ? new Date(achievement.importRevokedAt).toISOString().slice(0, 10) : null;
    return (
      <p className="text-sm font-medium text-destructive">
        {on ? `Revoked by the issuer on ${formatLongDate(on)}` : "Revoked by the issuer"}
      </p>
    );
  }
  return (
    <p className="text-xs text-muted-foreground">
      {`Issuer: ${achievement.importIssuer ?? ""}`}
      {achievement.importStatus === "unverified" ? " · could not be verified at its last check" : null}
    </p>
  );
}
