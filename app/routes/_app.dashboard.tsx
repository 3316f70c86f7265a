import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { AdminDashboard } from "#app/components/dashboard/admin-dashboard.tsx";
import { PersonalDashboard } from "#app/components/dashboard/personal-dashboard.tsx";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { redirectWithToast, safeRedirectPath, type Toast } from "#app/utils/cookies.server.ts";
import { approve, leave, rejectOrRemove, requestToJoin } from "#app/services/memberships.server.ts";
import { loadParts, pagePart, replyFailure, replyUnexpected } from "#app/utils/form-reply.server.ts";
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
import { parseAnalyticsRange } from "#db/queries/analytics-ranges.ts";
import { subscriptionAction } from "#app/services/subscription-actions.server.ts";
import { recognitionAnalyticsPart } from "#db/queries/analytics.ts";
import { PAGE_SIZES, pageRequestFrom } from "#db/queries/paging.ts";
import { MEMBERS_PREFIX, REQUESTS_PREFIX } from "#app/components/dashboard/admin-dashboard.tsx";
import { DIRECTORY_PREFIX } from "#app/components/dashboard/organization-directory.tsx";
import { personalSummaryPart } from "#db/queries/achievements.ts";
import {
  createOrganization,
  allOrganizationsPart,
  organizationSearchPart,
  resetInviteCode,
} from "#db/queries/organizations.ts";
import { adminDashboardPart } from "#db/queries/memberships/organization-members.ts";
import { membershipStatusesPart } from "#db/queries/memberships/person-memberships.ts";
import { refuseUnlessOrganizationAdmin, requireOrganizationAdmin } from "#app/utils/authorization.server.ts";

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
      pagePart("Error loading members", adminDashboardPart(context.db, { organizationId: active.id, lists }), {
        organization: undefined,
        pending: emptyPage(lists.pending.term),
        members: emptyPage(lists.members.term),
        stats: { totalMembers: 0, pending: 0, achievements: 0 },
      }),
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

// Every form the dashboard posts, told apart by its hidden `intent`. The Add Achievement and
// Create Organisation forms are validated field by field by their own Conform schemas; the
// buttons (approve, leave, subscribe...) carry nothing but ids, checked here.
const membershipIntent = <Intent extends string>(intent: Intent) =>
  z.object({ intent: z.literal(intent), membershipId: z.uuid() });
const organizationIntent = <Intent extends string>(intent: Intent) =>
  z.object({ intent: z.literal(intent), organizationId: z.uuid() });
const dashboardIntent = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("give-achievement") }),
  z.object({ intent: z.literal("create-organization") }),
  z.object({ intent: z.literal("reset-invite") }),
  membershipIntent("approve"),
  membershipIntent("reject"),
  membershipIntent("remove"),
  membershipIntent("subscribe"),
  membershipIntent("manage-subscription"),
  membershipIntent("cancel-subscription"),
  organizationIntent("request-join"),
  organizationIntent("leave"),
]);

/** The spec's title for an intent that failed unexpectedly; buttons without typed input get 'Error'. */
const FAILURE_TITLES: Partial<Record<z.infer<typeof dashboardIntent>["intent"], string>> = {
  "create-organization": "Error creating organisation",
  "request-join": "Error requesting membership",
};

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewerForAchievementForm(request, context);
  const back = (toast: Toast) => redirectWithToast(context.env, request, "/dashboard", toast);

  // Only the Add Achievement form carries files, and only an admin of the active organisation
  // may send one: checked before a byte of the body is read, on the role the session guard read
  // with the active organisation (no round trip of its own; giving checks it again as it writes).
  const activeOrganizationId = viewer.activeOrganization?.id ?? null;
  if (isUpload(request)) {
    refuseUnlessOrganizationAdmin(context, activeOrganizationId, Boolean(viewer.activeOrganization?.isAdmin), {
      userId: viewer.id,
      reason: "upload from a non-admin",
    });
  }
  // (Without an organisation no file gets this far, so the key is never made.)
  const upload = await readAchievementUpload(request, context, mediaKeys.organisation(activeOrganizationId ?? "none"));
  const parsed = dashboardIntent.safeParse(Object.fromEntries(upload.fields));
  if (!parsed.success) {
    await upload.discard();
    throw new Response("Unknown action", { status: 400 });
  }
  const form = parsed.data;

  if (form.intent === "give-achievement") {
    const organization = viewer.activeOrganization;
    if (!organization) throw forbidden(context, "no active organisation", { userId: viewer.id });
    const outcome = await submitAchievementForm(
      context,
      upload,
      { schema: giveAchievementSchema, failureTitle: "Error creating achievement" },
      (value, media) => {
        const { intent: _, media: _file, cover: _cover, mediaUrl: _url, timeZone: _zone, ...achievement } = value;
        return giveAchievement(
          context,
          { id: viewer.id, organizationId: organization.id, organizationName: organization.name },
          { ...achievement, ...media },
          context.env.APP_URL ?? new URL(request.url).origin,
        );
      },
    );
    return "refused" in outcome ? outcome.refused : back(outcome.toast);
  }
  // Only the Add Achievement form takes files.
  await upload.discard();

  if (form.intent === "create-organization") {
    if (viewer.userType !== "organization") {
      throw forbidden(
        context,
        "not an organisation account",
        { userId: viewer.id },
        "Only organisation accounts create organisations",
      );
    }
    const submission = parseWithZod(upload.fields, { schema: createOrganizationSchema });
    if (submission.status !== "success") return replyFailure({ formId: form.intent, submission });
    try {
      await createOrganization(context.db, viewer.id, submission.value);
    } catch (error) {
      return replyUnexpected(error, {
        title: FAILURE_TITLES[form.intent]!,
        formId: form.intent,
        submission,
        requestId: context.requestId,
      });
    }
    return back({ title: "Organisation created", description: "You are now the admin of this organisation" });
  }

  try {
    switch (form.intent) {
      case "reset-invite":
        // The organisation is the caller's active one, and only its admin may reset its link.
        await requireOrganizationAdmin(context, activeOrganizationId, {
          userId: viewer.id,
          reason: "invite reset by a non-admin",
        });
        await resetInviteCode(context.db, activeOrganizationId!);
        return back({ title: "Invite link reset", description: "The old link no longer works." });
      case "approve":
        return back(await approve(context, viewer.id, form.membershipId));
      case "reject":
      case "remove":
        return back(await rejectOrRemove(context, viewer.id, form.membershipId, form.intent));
      case "subscribe":
      case "manage-subscription":
      case "cancel-subscription":
        return await subscriptionAction(context, request, viewer.id, form);
      case "leave":
        return back(await leave(context, viewer.id, form.organizationId));
      case "request-join":
        return redirectWithToast(
          context.env,
          request,
          safeRedirectPath(upload.fields.get("redirectTo"), "/dashboard"),
          await requestToJoin(context, viewer, form.organizationId),
        );
    }
  } catch (error) {
    return replyUnexpected(error, {
      title: FAILURE_TITLES[form.intent] ?? "Error",
      formId: form.intent,
      requestId: context.requestId,
    });
  }
}

export default function Dashboard() {
  const data = useLoaderData<typeof loader>();
  return data.kind === "admin" ? (
    <AdminDashboard dashboard={data.admin} analytics={data.analytics} inviteUrl={data.inviteUrl} />
  ) : (
    <PersonalDashboard summary={data.summary} directory={data.directory} searchError={data.searchError} />
  );
}
