import { Link } from "@remix-run/react";
import Award from "lucide-react/icons/award";
import Building2 from "lucide-react/icons/building-complex";
import Clock from "lucide-react/icons/clock";
import UserRound from "lucide-react/icons/user-round";
import { ConfirmAction } from "#app/components/confirm-action.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { formatLongDate } from "#app/utils/dates.ts";
import { useViewer } from "#app/utils/use-viewer.ts";
import { lazy, Suspense } from "react";
import { DashboardHeader } from "./dashboard-header.tsx";
import type { DirectoryPage } from "./organization-directory.tsx";
import { OrganisationsSection as OrganisationsSectionNow } from "./organisations-section.tsx";
import { StatCards } from "./stat-cards.tsx";

/**
 * Finding or creating an organisation shows only to someone without an active one: an admin's or
 * a member's dashboard never loads its code (decision 046). The server renders it at once; in the
 * browser it hydrates when its chunk arrives, the server's markup standing until then.
 */
const OrganisationsSection = import.meta.env.SSR
  ? OrganisationsSectionNow
  : lazy(() => import("./organisations-section.tsx").then((module) => ({ default: module.OrganisationsSection })));

type Summary = {
  total: number;
  companies: number;
  latest: { id: string; title: string; description: string | null; date: string; organizationName: string | null }[];
};

export function PersonalDashboard({
  summary,
  directory,
  searchError,
}: {
  summary: Summary;
  directory: DirectoryPage | null;
  /** Why the search term was refused (the toast says it too). */
  searchError: string | null;
}) {
  const viewer = useViewer();
  const active = viewer.activeOrganization;
  return (
    <div className="mx-auto grid max-w-5xl gap-8">
      <DashboardHeader
        title={<h1 className="text-3xl font-bold tracking-tight break-words">Welcome, {viewer.fullName || "User"}</h1>}
        subtitle={active?.name ?? "Personal Dashboard"}
        actions={
          viewer.userType === "individual" ? (
            <Link to="/passport" className={buttonVariants()}>
              <UserRound aria-hidden /> View Passport
            </Link>
          ) : null
        }
      />

      {active ? (
        <div>
          <ConfirmAction
            id="leave"
            intent="leave"
            fields={{ organizationId: active.id }}
            trigger={`Leave ${active.name}`}
            triggerVariant="outline"
            title="Are you sure?"
            description={`This will remove you from ${active.name}. You'll need a new invite link to rejoin.`}
            confirm="Leave Organisation"
          />
        </div>
      ) : null}

      <StatCards
        stats={[
          { label: "Total Achievements", value: summary.total, icon: Award },
          { label: "Companies", value: summary.companies, icon: Building2 },
          { label: "Recent Activity", value: summary.latest.length, icon: Clock },
        ]}
      />

      <Card>
        <CardHeader>
          <CardTitle as="h2">Recent Achievements</CardTitle>
          <CardDescription>Your latest recognitions and milestones.</CardDescription>
        </CardHeader>
        <CardContent>
          {summary.latest.length === 0 ? (
            <p className="text-muted-foreground">No achievements yet. Start adding your career milestones!</p>
          ) : (
            <ul className="divide-y">
              {summary.latest.map((achievement) => (
                <li key={achievement.id} className="grid gap-1 py-3 first:pt-0 last:pb-0">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <h3 className="font-semibold break-words">{achievement.title}</h3>
                    <time dateTime={achievement.date} className="text-sm text-muted-foreground">
                      {formatLongDate(achievement.date)}
                    </time>
                  </div>
                  {achievement.organizationName ? (
                    <p className="text-sm text-muted-foreground">{achievement.organizationName}</p>
                  ) : null}
                  {achievement.description ? <p className="text-sm break-words">{achievement.description}</p> : null}
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

      {active ? null : (
        <Suspense fallback={null}>
          <OrganisationsSection directory={directory} searchError={searchError} />
        </Suspense>
      )}
    </div>
  );
}
