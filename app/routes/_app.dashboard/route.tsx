import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AdminDashboard } from "#app/components/dashboard/admin-dashboard.tsx";
import { PersonalDashboard } from "#app/components/dashboard/personal-dashboard.tsx";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import type { Toast } from "#app/utils/toast-message.ts";
import { asResponse, loadParts, pagePart } from "#app/utils/form-reply.server.ts";
import { readAchievementUpload, requireViewerForAchievementForm } from "#app/utils/achievement-form.server.ts";
import { runIntent } from "#app/utils/intent.server.ts";
import { isUpload, mediaKeys } from "#app/utils/uploads.server.ts";
import { uploadAllowance } from "#app/services/storage.server.ts";
import { requireViewer, sendHeldBackAdmin } from "#app/utils/session.server.ts";
import { activeAdminRole, refuseUnlessOrganizationAdmin } from "#app/utils/authorization.server.ts";
import { searchSchema } from "#app/utils/form-schemas.ts";
import { parseAnalyticsRange } from "#db/queries/analytics-ranges.ts";
import { recognitionAnalyticsPart } from "#db/queries/analytics.ts";
import { PAGE_SIZES, pageRequestFrom } from "#db/queries/paging.ts";
import { MEMBERS_PREFIX, REQUESTS_PREFIX } from "#app/components/dashboard/admin-dashboard.tsx";
import { DIRECTORY_PREFIX } from "#app/components/dashboard/organization-directory.tsx";
import { personalSummaryPart } from "#db/queries/achievements/own.ts";
import { allOrganizationsPart, organizationSearchPart } from "#db/queries/organizations.ts";
import { adminDashboardPart } from "#db/queries/memberships/organization-members.ts";
import { membershipStatusesPart } from "#db/queries/memberships/person-memberships.ts";
import { approveIntent } from "./approve.server.ts";
import { cancelSubscriptionIntent } from "./cancel-subscription.server.ts";
import { createOrganizationIntent } from "./create-organization.server.ts";
import { giveAchievementIntent } from "./give-achievement.server.ts";
import { leaveIntent } from "./leave.server.ts";
import { manageSubscriptionIntent } from "./manage-subscription.server.ts";
import { rejectIntent } from "./reject.server.ts";
import { removeIntent } from "./remove.server.ts";
import { requestJoinIntent } from "./request-join.server.ts";
import { resetInviteIntent } from "./reset-invite.server.ts";
import { subscribeIntent } from "./subscribe.server.ts";

const RECENT_ACHIEVEMENTS = 3;

/** A name search of a member list: the directory search's rules; anything else searches nothing. */
function nameSearch(value: string | null) {
  const search = value === null ? null : searchSchema.safeParse({ q: value });
  return search?.success ? search.data.q : null;
}

export const meta: MetaFunction = () => [{ title: `Dashboard · ${PRODUCT_NAME}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const active = viewer.activeOrganization;
  const url = new URL(request.url);

  // Each view's reads are one D1 batch (loadParts); the admin check came with the viewer.
  if (active?.isAdmin) {
    await sendHeldBackAdmin(request, context, viewer);
    const origin = context.env.APP_URL ?? url.origin;
    const range = parseAnalyticsRange(url.searchParams.get("range"));
    const list = (prefix: string, size: number) => ({
      page: pageRequestFrom(url.searchParams, prefix, size),
      term: nameSearch(url.searchParams.get(`${prefix}q`)),
    });
    const lists = {
      members: list(MEMBERS_PREFIX, PAGE_SIZES.teamMembers),
      pending: list(REQUESTS_PREFIX, PAGE_SIZES.pendingRequests),
    };
    const emptyPage = (term: string | null) => ({ items: [], next: null, previous: null, matching: 0, term });
    const [[admin, analytics], toast] = await loadParts(context, [
      pagePart(
        "Error loading members",
        adminDashboardPart(context.db, { organizationId: active.id, viewerId: viewer.id, lists }),
        {
          organization: undefined,
          pending: emptyPage(lists.pending.term),
          members: emptyPage(lists.members.term),
          stats: { totalMembers: 0, pending: 0, achievements: 0 },
        },
      ),
      pagePart("Error loading dashboard", recognitionAnalyticsPart(context.db, active.id, range), null),
    ]);
    return {
      kind: "admin" as const,
      admin,
      analytics,
      // No code, no link: without its row the page cannot show one that works.
      inviteUrl: admin.organization
        ? `${origin}/join/${active.id}?code=${encodeURIComponent(admin.organization.inviteCode)}`
        : null,
      toast,
    };
  }

  const summary = pagePart("Error loading dashboard", personalSummaryPart(context.db, viewer.id, RECENT_ACHIEVEMENTS), {
    total: 0,
    companies: 0,
    latest: [],
  });
  const page = pageRequestFrom(url.searchParams, DIRECTORY_PREFIX, PAGE_SIZES.organizations);
  const noOrganizations = { items: [], next: null, previous: null, total: 0 };
  // Without its statuses a list still renders; every card then offers Request to Join.
  const statuses = pagePart(
    "Error loading memberships",
    membershipStatusesPart(context.db, { userId: viewer.id }),
    {} as Record<string, string>,
  );
  const search = !active && url.searchParams.has("q") ? searchSchema.safeParse({ q: url.searchParams.get("q") }) : null;
  const directoryPart =
    !active && viewer.userType === "organization"
      ? pagePart("Error loading organisations", allOrganizationsPart(context.db, page), noOrganizations)
      : search?.success
        ? pagePart(
            "Error searching organizations",
            organizationSearchPart(context.db, viewer.id, search.data.q, page),
            noOrganizations,
          )
        : null;

  if (!directoryPart) {
    const [[loaded], toast] = await loadParts(context, [summary]);
    const searchError =
      search && !search.success ? (search.error.issues[0]?.message ?? "Search term cannot be empty") : null;
    return {
      kind: "personal" as const,
      summary: loaded,
      directory: null,
      searchError,
      toast: searchError
        ? ({ title: "Invalid search", description: searchError, variant: "destructive" } satisfies Toast)
        : toast,
    };
  }
  // In this order, the first failing part's toast is the one shown (the directory's before the rest).
  const [[found, statusOf, loaded], toast] = await loadParts(context, [directoryPart, statuses, summary]);
  return {
    kind: "personal" as const,
    summary: loaded,
    directory: {
      ...found,
      organizations: found.items.map((org) => ({ ...org, status: statusOf[org.id] ?? null })),
      term: search?.success ? search.data.q : null,
    },
    searchError: null,
    toast,
  };
}

/** Every form the dashboard posts, by its `intent`. */
const INTENTS = {
  "give-achievement": giveAchievementIntent,
  "create-organization": createOrganizationIntent,
  "reset-invite": resetInviteIntent,
  approve: approveIntent,
  reject: rejectIntent,
  remove: removeIntent,
  subscribe: subscribeIntent,
  "manage-subscription": manageSubscriptionIntent,
  "cancel-subscription": cancelSubscriptionIntent,
  "request-join": requestJoinIntent,
  leave: leaveIntent,
};

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewerForAchievementForm(request, context);
  // Only the Add Achievement form carries files, and only an admin of the active organisation
  // may send one: checked before a byte of the body is read, on the role the session guard read
  // with the active organisation (no round trip of its own; giving checks it again as it writes).
  const activeOrganizationId = viewer.activeOrganization?.id ?? null;
  if (isUpload(request)) {
    try {
      refuseUnlessOrganizationAdmin(context, activeOrganizationId, activeAdminRole(viewer), {
        userId: viewer.id,
        reason: "upload from a non-admin",
      });
    } catch (error) {
      throw asResponse(error);
    }
  }
  // (Without an organisation no file gets this far, so the key is never made.)
  // The organisation's media, not the admin's own files: their upload rate holds, not their quota.
  const allowance = uploadAllowance(context, viewer.id, { counted: false });
  const key = mediaKeys.organisation(activeOrganizationId ?? "none");
  const upload = await readAchievementUpload(request, context, key, allowance);
  return runIntent({ request, context }, INTENTS, { viewer, fields: upload.fields, upload, back: "/dashboard" });
}

export default function Dashboard() {
  const data = useLoaderData<typeof loader>();
  return data.kind === "admin" ? (
    <AdminDashboard dashboard={data.admin} analytics={data.analytics} inviteUrl={data.inviteUrl} />
  ) : (
    <PersonalDashboard summary={data.summary} directory={data.directory} searchError={data.searchError} />
  );
}
