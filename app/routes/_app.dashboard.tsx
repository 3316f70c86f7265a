import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { Award, Building2, Clock, LogOut, Settings, UserRound } from "lucide-react";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { formatLongDate } from "#app/utils/dates.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { loadPersonalSummary } from "#db/queries/achievements.ts";
import { useViewer } from "./_app.tsx";

const RECENT_ACHIEVEMENTS = 3;

export const meta: MetaFunction = () => [{ title: `Dashboard · ${PRODUCT_NAME}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  return { summary: await loadPersonalSummary(context.db, viewer.id, RECENT_ACHIEVEMENTS) };
}

export default function Dashboard() {
  const { summary } = useLoaderData<typeof loader>();
  return <PersonalDashboard summary={summary} />;
}

function PersonalDashboard({ summary }: { summary: Awaited<ReturnType<typeof loadPersonalSummary>> }) {
  const viewer = useViewer();
  const stats = [
    { label: "Total Achievements", value: summary.total, icon: Award },
    { label: "Companies", value: summary.companies, icon: Building2 },
    { label: "Recent Activity", value: summary.latest.length, icon: Clock },
  ];
  return (
    <div className="mx-auto grid max-w-5xl gap-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-3xl font-bold tracking-tight break-words">Welcome, {viewer.fullName || "User"}</h1>
          <p className="text-muted-foreground">{viewer.activeOrganization?.name ?? "Personal Dashboard"}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          {viewer.userType === "individual" ? (
            <Button asChild>
              <Link to="/passport">
                <UserRound aria-hidden /> View Passport
              </Link>
            </Button>
          ) : null}
          <Button asChild variant="outline">
            <Link to="/settings">
              <Settings aria-hidden /> Settings
            </Link>
          </Button>
          <Form method="post" action="/auth/signout">
            <Button type="submit" variant="outline">
              <LogOut aria-hidden /> Sign Out
            </Button>
          </Form>
        </div>
      </div>

      <ul className="grid gap-4 sm:grid-cols-3">
        {stats.map(({ label, value, icon: Icon }) => (
          <li key={label}>
            <Card>
              <CardHeader className="flex flex-row items-center justify-between pb-2">
                <CardTitle as="h2" className="text-sm font-medium text-muted-foreground">
                  {label}
                </CardTitle>
                <Icon className="size-4 text-muted-foreground" aria-hidden />
              </CardHeader>
              <CardContent>
                <p className="text-3xl font-bold">{value}</p>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>

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
    </div>
  );
}
