import { Form, Link } from "@remix-run/react";
import Award from "lucide-react/icons/award";
import Clock from "lucide-react/icons/clock";
import Globe from "lucide-react/icons/globe";
import ShieldCheck from "lucide-react/icons/shield-check";
import Users from "lucide-react/icons/users";
import { AchievementDialog } from "#app/components/achievements/achievement-dialog.tsx";
import { ConfirmAction } from "#app/components/confirm-action.tsx";
import { CopyLink } from "#app/components/copy-link.tsx";
import { ListSearch, Pager } from "#app/components/pager.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { formatShortDate } from "#app/utils/dates.ts";
import type { RecognitionAnalytics } from "#db/queries/analytics.ts";
import { AnalyticsPanel } from "./analytics-panel.tsx";
import { DashboardHeader } from "./dashboard-header.tsx";
import { StatCards } from "./stat-cards.tsx";
import { SubscriptionControl } from "./subscription-control.tsx";

type Member = {
  id: string;
  userId: string;
  fullName: string;
  requestedAt: Date;
  approvedAt: Date | null;
  subscriptionStatus: "active" | "inactive";
  isAdmin: boolean;
  /** Whether the viewer pays for the member's subscription (only they may manage its billing). */
  paidByViewer: boolean;
};

type MemberPage = {
  items: Member[];
  next: string | null;
  previous: string | null;
  matching: number;
  term: string | null;
};

export type AdminDashboardData = {
  organization: { id: string; name: string; inviteCode: string } | undefined;
  pending: MemberPage;
  members: MemberPage;
  stats: { totalMembers: number; pending: number; achievements: number };
};

/** Query-parameter prefixes of the two paged lists, so each keeps its own page and search. */
export const MEMBERS_PREFIX = "members.";
export const REQUESTS_PREFIX = "requests.";

export function AdminDashboard({
  dashboard,
  analytics,
  inviteUrl,
}: {
  dashboard: AdminDashboardData;
  /** Null when it could not be loaded (the page's toast says so). */
  analytics: RecognitionAnalytics | null;
  /** Null when the organisation's row could not be read (the page says so in its toast). */
  inviteUrl: string | null;
}) {
  const { organization, pending, members, stats } = dashboard;
  return (
    <div className="mx-auto grid max-w-5xl gap-8">
      <DashboardHeader
        title={
          <div className="flex items-center gap-2">
            <h1 className="text-3xl font-bold tracking-tight">Organisation Admin</h1>
            <Badge>Admin</Badge>
          </div>
        }
        subtitle={organization?.name}
        actions={
          <>
            <Link to="/dashboard/organization" className={buttonVariants({ variant: "outline" })}>
              <Globe aria-hidden /> Organisation profile
            </Link>
            <Link to="/dashboard/achievements" className={buttonVariants({ variant: "outline" })}>
              <ShieldCheck aria-hidden /> Given achievements
            </Link>
          </>
        }
      />

      {inviteUrl ? (
        <Card>
          <CardHeader>
            <CardTitle as="h2">Add Members</CardTitle>
            <CardDescription>Share this invite link. Members who click the link automatically join.</CardDescription>
          </CardHeader>
          <CardContent>
            <CopyLink
              url={inviteUrl}
              label="Invite link"
              toast={{ title: "Link copied!", description: "Share this link with members to invite them." }}
            />
            <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
              <p className="text-sm text-muted-foreground">
                Anyone with this link joins at once. Others can ask to join and wait for your approval.
              </p>
              <ConfirmAction
                id="reset-invite"
                intent="reset-invite"
                trigger="Reset link"
                triggerVariant="outline"
                triggerSize="sm"
                title="Reset the invite link?"
                description="The current link stops working at once. Share the new link with the people you still want to invite."
                confirm="Reset Link"
              />
            </div>
          </CardContent>
        </Card>
      ) : null}

      <StatCards
        stats={[
          { label: "Total Members", value: stats.totalMembers, hint: "Active members", icon: Users },
          { label: "Pending", value: stats.pending, hint: "Awaiting approval", icon: Clock },
          { label: "Achievements", value: stats.achievements, hint: "Total earned", icon: Award },
        ]}
      />

      {stats.pending > 0 ? (
        <Card>
          <CardHeader>
            <CardTitle as="h2">Pending Requests</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3">
            <ListSearch prefix={REQUESTS_PREFIX} label="Search pending requests" term={pending.term} />
            {pending.items.length === 0 ? (
              <p className="text-muted-foreground">{`No pending requests match '${pending.term}'`}</p>
            ) : (
              <ul className="divide-y" aria-label="Pending requests">
                {pending.items.map((request) => (
                  <li
                    key={request.id}
                    className="flex flex-wrap items-center justify-between gap-3 py-3 first:pt-0 last:pb-0"
                  >
                    <div className="min-w-0">
                      <p className="font-medium break-words">{request.fullName}</p>
                      <p className="text-sm text-muted-foreground">Requested {formatShortDate(request.requestedAt)}</p>
                    </div>
                    <Form method="post" action="/dashboard" className="flex gap-2">
                      <input type="hidden" name="membershipId" value={request.id} />
                      <SubmitButton intent="approve" size="sm" aria-label={`Approve ${request.fullName}`}>
                        Approve
                      </SubmitButton>
                      <SubmitButton
                        intent="reject"
                        size="sm"
                        variant="outline"
                        aria-label={`Reject ${request.fullName}`}
                      >
                        Reject
                      </SubmitButton>
                    </Form>
                  </li>
                ))}
              </ul>
            )}
            <Pager
              prefix={REQUESTS_PREFIX}
              label="Pending requests pages"
              shown={pending.items.length}
              total={pending.matching}
              noun={pending.term ? "matching requests" : "requests"}
              previous={pending.previous}
              next={pending.next}
            />
          </CardContent>
        </Card>
      ) : null}

      <Card>
        <CardHeader>
          <CardTitle as="h2">Team Members</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-3">
          {stats.totalMembers > 0 ? (
            <ListSearch prefix={MEMBERS_PREFIX} label="Search team members" term={members.term} />
          ) : null}
          {members.items.length === 0 ? (
            <p className="text-muted-foreground">
              {members.term
                ? `No members match '${members.term}'`
                : "No members yet. Share your invite link to get started!"}
            </p>
          ) : (
            <ul className="divide-y" aria-label="Team members">
              {members.items.map((member) => (
                <li
                  key={member.id}
                  className="flex flex-wrap items-center justify-between gap-3 py-3 first:pt-0 last:pb-0"
                >
                  <div className="min-w-0">
                    <p className="flex flex-wrap items-center gap-2 font-medium break-words">
                      {member.fullName}
                      {member.isAdmin ? <Badge variant="outline">Admin</Badge> : null}
                    </p>
                    <p className="text-sm text-muted-foreground">
                      Joined {formatShortDate(member.approvedAt ?? member.requestedAt)}
                    </p>
                  </div>
                  <div className="flex flex-wrap items-center gap-2">
                    <Badge variant={member.subscriptionStatus === "active" ? "success" : "secondary"}>
                      {member.subscriptionStatus === "active" ? "Subscribed" : "Not Subscribed"}
                    </Badge>
                    <SubscriptionControl member={member} />
                    <AchievementDialog
                      kind="give"
                      id={`give-${member.userId}`}
                      members={members.items}
                      defaultUserId={member.userId}
                      trigger={
                        <>
                          Give Achievement<span className="sr-only"> to {member.fullName}</span>
                        </>
                      }
                    />
                    <ConfirmAction
                      id={`remove-${member.id}`}
                      intent="remove"
                      fields={{ membershipId: member.id }}
                      trigger={
                        <>
                          Remove<span className="sr-only"> {member.fullName}</span>
                        </>
                      }
                      triggerSize="sm"
                      triggerVariant="outline"
                      title={`Remove ${member.fullName}?`}
                      description={`${member.fullName} will no longer be a member of ${organization?.name ?? "this organisation"}. Their achievements stay on their passport.`}
                      confirm="Remove Member"
                    />
                  </div>
                </li>
              ))}
            </ul>
          )}
          {stats.totalMembers > 0 ? (
            <Pager
              prefix={MEMBERS_PREFIX}
              label="Team members pages"
              shown={members.items.length}
              total={members.matching}
              noun={members.term ? "matching members" : "members"}
              previous={members.previous}
              next={members.next}
            />
          ) : null}
        </CardContent>
      </Card>

      {analytics ? <AnalyticsPanel analytics={analytics} /> : null}
    </div>
  );
}
