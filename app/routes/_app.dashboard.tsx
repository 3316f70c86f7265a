import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { AdminDashboard } from "#app/components/dashboard/admin-dashboard.tsx";
import { PersonalDashboard } from "#app/components/dashboard/personal-dashboard.tsx";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { redirectWithToast, safeRedirectPath, type Toast } from "#app/utils/cookies.server.ts";
import { approve, leave, rejectOrRemove, requestToJoin } from "#app/services/memberships.server.ts";
import { loadPart, replyFailure, replyUnexpected } from "#app/utils/form-reply.server.ts";
import { giveAchievementSchema } from "#app/utils/achievement-schemas.ts";
import {
  giveAchievement,
  readAchievementUpload,
  requireViewerForAchievementForm,
  submitAchievementForm,
} from "#app/services/achievements.server.ts";
import { isUpload, mediaKeys } from "#app/services/uploads.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { forbidden } from "#app/utils/denial.server.ts";
import { createOrganizationSchema, searchSchema } from "#app/utils/form-schemas.ts";
import { parseAnalyticsRange } from "#app/utils/analytics.ts";
import { subscriptionAction } from "#app/services/subscription-actions.server.ts";
import { loadRecognitionAnalytics } from "#db/queries/analytics.ts";
import { PAGE_SIZES, pageRequestFrom } from "#db/queries/paging.ts";
import { MEMBERS_PREFIX, REQUESTS_PREFIX } from "#app/components/dashboard/admin-dashboard.tsx";
import { DIRECTORY_PREFIX } from "#app/components/dashboard/organization-directory.tsx";
import { loadPersonalSummary } from "#db/queries/achievements.ts";
import {
  createOrganization,
  isOrganizationAdmin,
  listAllOrganizations,
  loadAdminDashboard,
  membershipStatuses,
  resetInviteCode,
  searchOrganizations,
} from "#db/queries/organizations.ts";

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

  if (active && (await isOrganizationAdmin(context.db, viewer.id, active.id))) {
    const origin = context.env.APP_URL ?? new URL(request.url).origin;
    const url = new URL(request.url);
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
    const [admin, membersError] = await loadPart(
      context,
      "Error loading members",
      () => loadAdminDashboard(context.db, active.id, lists),
      {
        organization: undefined,
        pending: emptyPage(lists.pending.term),
        members: emptyPage(lists.members.term),
        stats: { totalMembers: 0, pending: 0, achievements: 0 },
      },
    );
    const [analytics, analyticsError] = await loadPart(
      context,
      "Error loading dashboard",
      () => loadRecognitionAnalytics(context.db, active.id, range),
      null,
    );
    return {
      kind: "admin" as const,
      admin,
      analytics,
      // No code, no link: without its row the page cannot show one that works.
      inviteUrl: admin.organization
        ? `${origin}/join/${active.id}?code=${encodeURIComponent(admin.organization.inviteCode)}`
        : null,
      toast: membersError ?? analyticsError,
    };
  }

  const [summary, summaryError] = await loadPart(
    context,
    "Error loading dashboard",
    () => loadPersonalSummary(context.db, viewer.id, RECENT_ACHIEVEMENTS),
    { total: 0, companies: 0, latest: [] },
  );
  const url = new URL(request.url);
  let directory: {
    organizations: { id: string; name: string; description: string | null; status: string | null }[];
    term: string | null;
    total: number;
    next: string | null;
    previous: string | null;
  } | null = null;
  let directoryError: Toast | null = null;
  let statusesError: Toast | null = null;
  let searchError: string | null = null;
  const page = pageRequestFrom(url.searchParams, DIRECTORY_PREFIX, PAGE_SIZES.organizations);
  const noOrganizations = { items: [], next: null, previous: null, total: 0 };

  if (!active && viewer.userType === "organization") {
    const [found, error] = await loadPart(
      context,
      "Error loading organisations",
      () => listAllOrganizations(context.db, page),
      noOrganizations,
    );
    [directory, directoryError] = [{ ...found, organizations: await withStatuses(found.items), term: null }, error];
  } else if (!active && url.searchParams.has("q")) {
    const search = searchSchema.safeParse({ q: url.searchParams.get("q") });
    if (search.success) {
      const [found, error] = await loadPart(
        context,
        "Error searching organizations",
        () => searchOrganizations(context.db, viewer.id, search.data.q, page),
        noOrganizations,
      );
      [directory, directoryError] = [
        { ...found, organizations: await withStatuses(found.items), term: search.data.q },
        error,
      ];
    } else {
      searchError = search.error.issues[0]?.message ?? "Search term cannot be empty";
      directoryError = { title: "Invalid search", description: searchError, variant: "destructive" };
    }
  }
  return {
    kind: "personal" as const,
    summary,
    directory,
    searchError,
    toast: directoryError ?? statusesError ?? summaryError,
  };

  // Without its statuses a list still renders; every card then offers Request to Join.
  async function withStatuses(organizations: { id: string; name: string; description: string | null }[]) {
    const [statuses, error] = await loadPart(
      context,
      "Error loading memberships",
      () =>
        membershipStatuses(
          context.db,
          viewer.id,
          organizations.map((org) => org.id),
        ),
      {} as Record<string, string>,
    );
    statusesError = error;
    return organizations.map((org) => ({ ...org, status: statuses[org.id] ?? null }));
  }
}

const membershipAction = z.object({
  intent: z.enum(["approve", "reject", "remove"]),
  membershipId: z.uuid(),
});
const organizationAction = z.object({
  intent: z.enum(["request-join", "leave"]),
  organizationId: z.uuid(),
});

/** The spec's title for an intent that failed unexpectedly. */
const FAILURE_TITLES: Record<string, string> = {
  "create-organization": "Error creating organisation",
  "request-join": "Error requesting membership",
};

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewerForAchievementForm(request, context);
  const back = (toast: Toast) => redirectWithToast(context.env, request, "/dashboard", toast);

  // Only the Add Achievement form carries files, and only an admin of the active organisation
  // may send one: checked before a byte of the body is read.
  const organizationId = viewer.activeOrganization?.id ?? null;
  const isAdmin = organizationId !== null && (await isOrganizationAdmin(context.db, viewer.id, organizationId));
  if (isUpload(request) && !isAdmin)
    throw forbidden(context, "upload from a non-admin", { userId: viewer.id, organizationId });
  // (Without an organisation no file gets this far, so the key is never made.)
  const upload = await readAchievementUpload(request, context, mediaKeys.organisation(organizationId ?? "none"));
  const formData = upload.fields;
  const intent = String(formData.get("intent") ?? "");

  if (intent === "give-achievement") {
    if (!organizationId) throw forbidden(context, "no active organisation", { userId: viewer.id });
    const outcome = await submitAchievementForm(
      context,
      upload,
      { schema: giveAchievementSchema, failureTitle: "Error creating achievement" },
      (value, media) => {
        const { intent: _, media: _file, cover: _cover, mediaUrl: _url, timeZone: _zone, ...achievement } = value;
        return giveAchievement(
          context,
          { id: viewer.id, organizationId },
          { ...achievement, ...media },
          context.env.APP_URL ?? new URL(request.url).origin,
        );
      },
    );
    return "refused" in outcome ? outcome.refused : back(outcome.toast);
  }
  await upload.discard();

  if (intent === "create-organization") {
    if (viewer.userType !== "organization") {
      throw forbidden(
        context,
        "not an organisation account",
        { userId: viewer.id },
        "Only organisation accounts create organisations",
      );
    }
    const submission = parseWithZod(formData, { schema: createOrganizationSchema });
    if (submission.status !== "success") return replyFailure({ formId: intent, submission });
    try {
      await createOrganization(context.db, viewer.id, submission.value);
    } catch (error) {
      return replyUnexpected(error, {
        title: FAILURE_TITLES[intent]!,
        formId: intent,
        submission,
        requestId: context.requestId,
      });
    }
    return back({ title: "Organisation created", description: "You are now the admin of this organisation" });
  }

  try {
    if (intent === "reset-invite") {
      // The organisation is the caller's active one, and only its admin may reset its link.
      if (!organizationId || !isAdmin) {
        throw forbidden(context, "invite reset by a non-admin", { userId: viewer.id, organizationId });
      }
      await resetInviteCode(context.db, organizationId);
      return back({ title: "Invite link reset", description: "The old link no longer works." });
    }

    const onSubscription = await subscriptionAction(context, request, viewer.id, formData);
    if (onSubscription) return onSubscription;

    const onMembership = membershipAction.safeParse(Object.fromEntries(formData));
    if (onMembership.success) {
      const { intent, membershipId } = onMembership.data;
      return back(
        intent === "approve"
          ? await approve(context, viewer.id, membershipId)
          : await rejectOrRemove(context, viewer.id, membershipId, intent),
      );
    }

    const onOrganization = organizationAction.safeParse(Object.fromEntries(formData));
    if (onOrganization.success) {
      const { intent, organizationId } = onOrganization.data;
      if (intent === "leave") return back(await leave(context, viewer.id, organizationId));
      const toast = await requestToJoin(context, viewer, organizationId);
      return redirectWithToast(context.env, request, safeRedirectPath(formData.get("redirectTo"), "/dashboard"), toast);
    }
  } catch (error) {
    // Buttons without typed input (approve, leave, subscribe...): the spec's generic 'Error'.
    return replyUnexpected(error, {
      title: FAILURE_TITLES[intent] ?? "Error",
      formId: intent,
      requestId: context.requestId,
    });
  }
  throw new Response("Unknown action", { status: 400 });
}

export default function Dashboard() {
  const data = useLoaderData<typeof loader>();
  return data.kind === "admin" ? (
    <AdminDashboard dashboard={data.admin} analytics={data.analytics} inviteUrl={data.inviteUrl} />
  ) : (
    <PersonalDashboard summary={data.summary} directory={data.directory} searchError={data.searchError} />
  );
}
