import { Link } from "@remix-run/react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { ANALYTICS_RANGES, DAY_MS, NEEDS_RECOGNITION_DAYS, type AnalyticsRange } from "#db/queries/analytics-ranges.ts";
import { cn } from "#app/utils/cn.ts";
import { formatDayMonth, formatMonthYear } from "#app/utils/dates.ts";
import type { RecognitionAnalytics } from "#db/queries/analytics.ts";
import { BarChart, type Bar } from "./bar-chart.tsx";

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

function bucketLabel(analytics: RecognitionAnalytics, start: number) {
  if (analytics.bucket === "day") return formatDayMonth(start);
  if (analytics.bucket === "month") return formatMonthYear(start);
  const end = Math.min(start + 7 * DAY_MS, analytics.end) - DAY_MS;
  return end === start ? formatDayMonth(start) : `${formatDayMonth(start)} – ${formatDayMonth(end)}`;
}

/** "Up 2 (+50%) on the previous 30 days", in words a screen reader reads as they are. */
export function changeText(current: number, previous: number, range: AnalyticsRange) {
  const period = `the previous ${range} days`;
  const delta = current - previous;
  if (delta === 0) return `Same as ${period}`;
  const percent = previous > 0 ? ` (${delta > 0 ? "+" : "−"}${Math.round((Math.abs(delta) / previous) * 100)}%)` : "";
  return `${delta > 0 ? "Up" : "Down"} ${Math.abs(delta)}${percent} on ${period}`;
}

export function AnalyticsPanel({ analytics }: { analytics: RecognitionAnalytics }) {
  const { range, total, previousTotal, needsRecognition, topRecognisers } = analytics;
  const per = analytics.bucket === "day" ? "per day" : analytics.bucket === "week" ? "per week" : "per month";
  const series: Bar[] = analytics.series.map((bar) => ({ label: bucketLabel(analytics, bar.start), count: bar.count }));
  const trend: Bar[] = analytics.trend.map((bar) => ({ label: formatMonthYear(bar.start), count: bar.count }));
  const hidden = needsRecognition.total - needsRecognition.members.length;

  return (
    <section aria-labelledby="analytics-heading" className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="analytics-heading" className="text-2xl font-semibold tracking-tight">
          Analytics
        </h2>
        {/* Links, not a form: each range is a shareable URL and works without JavaScript. */}
        <nav aria-label="Analytics range">
          <ul className="flex rounded-md border bg-muted p-0.5 text-sm">
            {ANALYTICS_RANGES.map((option) => (
              <li key={option}>
                <Link
                  to={`?range=${option}`}
                  preventScrollReset
                  aria-current={option === range ? "page" : undefined}
                  className={cn(
                    "block rounded-sm px-2.5 py-1.5 font-medium whitespace-nowrap transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none sm:px-3",
                    option === range
                      ? "bg-background text-foreground shadow-sm"
                      : "text-muted-foreground hover:text-foreground",
                  )}
                >
                  {/* The name reads "Last 7 days" and contains what is seen ("7 days"). */}
                  <span className="sr-only">Last </span>
                  {`${option} days`}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>

      <div className="grid gap-4 md:grid-cols-2">
        <Card className="md:col-span-2" role="region" aria-labelledby="recognition-heading">
          <CardHeader>
            <CardTitle as="h3" id="recognition-heading">
              Recognition
            </CardTitle>
            <CardDescription>{`Achievements given in the last ${range} days, pending or accepted`}</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <div>
              <p className="text-3xl font-bold tabular-nums" aria-describedby="recognition-change">
                <span className="sr-only">{`Achievements given in the last ${range} days: `}</span>
                {total}
              </p>
              <p id="recognition-change" className="text-sm text-muted-foreground">
                {changeText(total, previousTotal, range)}
              </p>
            </div>
            <BarChart
              title={`Achievements given ${per}, last ${range} days`}
              bars={series}
              summary={`${plural(total, "achievement")} in ${plural(series.length, per.slice(4))}, most in one ${per.slice(4)}: ${Math.max(0, ...series.map((bar) => bar.count))}.`}
            />
          </CardContent>
        </Card>

        <Card role="region" aria-labelledby="needs-recognition-heading">
          <CardHeader>
            <CardTitle as="h3" id="needs-recognition-heading">
              Needs recognition
            </CardTitle>
            <CardDescription>{`No achievement from your organisation in ${NEEDS_RECOGNITION_DAYS} days or more`}</CardDescription>
          </CardHeader>
          <CardContent>
            {needsRecognition.total === 0 ? (
              <p className="text-sm text-muted-foreground">{`Everyone has been recognised in the last ${NEEDS_RECOGNITION_DAYS} days.`}</p>
            ) : (
              <ul className="divide-y text-sm" aria-label="Members who need recognition">
                {needsRecognition.members.map((member) => (
                  <li key={member.userId} className="flex flex-wrap justify-between gap-x-3 py-2 first:pt-0">
                    <span className="font-medium break-words">{member.fullName}</span>
                    <span className="text-muted-foreground">
                      {member.neverRecognised
                        ? `Never recognised · joined ${plural(member.days, "day")} ago`
                        : `Last recognised ${plural(member.days, "day")} ago`}
                    </span>
                  </li>
                ))}
                {hidden > 0 ? <li className="pt-2 text-muted-foreground">{`+ ${hidden} more`}</li> : null}
              </ul>
            )}
          </CardContent>
        </Card>

        <Card role="region" aria-labelledby="top-recognisers-heading">
          <CardHeader>
            <CardTitle as="h3" id="top-recognisers-heading">
              Top recognisers
            </CardTitle>
            <CardDescription>{`Admins by achievements given in the last ${range} days`}</CardDescription>
          </CardHeader>
          <CardContent>
            {topRecognisers.length === 0 ? (
              <p className="text-sm text-muted-foreground">No achievements given in this period.</p>
            ) : (
              <ol className="divide-y text-sm" aria-label="Top recognisers">
                {topRecognisers.map((admin, index) => (
                  <li key={admin.userId} className="flex justify-between gap-3 py-2 first:pt-0">
                    <span className="min-w-0 break-words">
                      <span className="mr-2 text-muted-foreground tabular-nums">{index + 1}.</span>
                      {admin.fullName}
                    </span>
                    <span className="font-medium tabular-nums">{plural(admin.count, "achievement")}</span>
                  </li>
                ))}
              </ol>
            )}
          </CardContent>
        </Card>

        <Card className="md:col-span-2" role="region" aria-labelledby="recognition-trend-heading">
          <CardHeader>
            <CardTitle as="h3" id="recognition-trend-heading">
              Recognition trend
            </CardTitle>
            <CardDescription>Achievements given per month, last 6 months</CardDescription>
          </CardHeader>
          <CardContent>
            <BarChart
              title="Achievements given per month, last 6 months"
              bars={trend}
              summary={trend.map((bar) => `${bar.label}: ${bar.count}`).join(", ")}
            />
          </CardContent>
        </Card>
      </div>
    </section>
  );
}
