import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { AdminDashboard } from "#app/components/dashboard/admin-dashboard.tsx";
import { PersonalDashboard } from "#app/components/dashboard/personal-dashboard.tsx";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { redirectWithToast, safeRedirectPath, type Toast } from "#app/utils/cookies.server.ts";
import { approve, leave, MembershipError, rejectOrRemove, requestToJoin } from "#app/utils/memberships.server.ts";
import { giveAchievementSchema } from "#app/utils/achievement-schemas.ts";
import {
  AchievementError,
  giveAchievement,
  readAchievementUpload,
  submitAchievementForm,
} from "#app/utils/achievements.server.ts";
import { isUpload, mediaKeys } from "#app/utils/uploads.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { forbidden } from "#app/utils/denial.server.ts";
import { validationToast } from "#app/utils/validation.ts";
import { createOrganizationSchema, searchSchema } from "#app/utils/form-schemas.ts";
import { parseAnalyticsRange } from "#app/utils/analytics.ts";
import { subscriptionAction } from "#app/utils/subscription-actions.server.ts";
import { loadRecognitionAnalytics } from "#db/queries/analytics.ts";
import { PAGE_SIZES, pageRequestFrom } from "#db/queries/paging.ts";
import { MEMBERS_PREFIX, REQUESTS_PREFIX } from "#app/components/dashboard/admin-dashboard.tsx";
import { DIRECTORY_PREFIX } from "#app/components/dashboard/organization-directory.tsx";
import type { FormActionData } from "#app/utils/use-validated-form.ts";
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
    const list = (prefix: string, size: number) => ({
      page: pageRequestFrom(url.searchParams, prefix, size),
      term: nameSearch(url.searchParams.get(`${prefix}q`)),
    });
    const admin = await loadAdminDashboard(context.db, active.id, {
      members: list(MEMBERS_PREFIX, PAGE_SIZES.teamMembers),
      pending: list(REQUESTS_PREFIX, PAGE_SIZES.pendingRequests),
    });
    return {
      kind: "admin" as const,
      admin,
      analytics: await loadRecognitionAnalytics(
        context.db,
        active.id,
        parseAnalyticsRange(new URL(request.url).searchParams.get("range")),
      ),
      inviteUrl: `${origin}/join/${active.id}?code=${encodeURIComponent(admin.organization?.inviteCode ?? "")}`,
    };
  }

  const summary = await loadPersonalSummary(context.db, viewer.id, RECENT_ACHIEVEMENTS);
  const url = new URL(request.url);
  let directory: {
    organizations: { id: string; name: string; description: string | null; status: string | null }[];
    term: string | null;
    total: number;
    next: string | null;
    previous: string | null;
  } | null = null;
  let searchError: Toast | null = null;
  const page = pageRequestFrom(url.searchParams, DIRECTORY_PREFIX, PAGE_SIZES.organizations);

  if (!active && viewer.userType === "organization") {
    const found = await listAllOrganizations(context.db, page);
    directory = { ...found, organizations: await withStatuses(found.items), term: null };
  } else if (!active && url.searchParams.has("q")) {
    const search = searchSchema.safeParse({ q: url.searchParams.get("q") });
    if (search.success) {
      const found = await searchOrganizations(context.db, viewer.id, search.data.q, page);
      directory = { ...found, organizations: await withStatuses(found.items), term: search.data.q };
    } else {
      searchError = { title: "Invalid search", description: search.error.issues[0]?.message, variant: "destructive" };
    }
  }
  return { kind: "personal" as const, summary, directory, searchError };

  async function withStatuses(organizations: { id: string; name: string; description: string | null }[]) {
    const statuses = await membershipStatuses(
      context.db,
      viewer.id,
      organizations.map((org) => org.id),
    );
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

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
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
  const intent = formData.get("intent");

  try {
    if (intent === "give-achievement") {
      if (!organizationId) throw forbidden(context, "no active organisation", { userId: viewer.id });
      const outcome = await submitAchievementForm(upload, giveAchievementSchema, (value, media) => {
        const { intent: _, media: _file, cover: _cover, mediaUrl: _url, ...achievement } = value;
        return giveAchievement(
          context,
          { id: viewer.id, organizationId },
          { ...achievement, ...media },
          context.env.APP_URL ?? new URL(request.url).origin,
        );
      });
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
      if (submission.status !== "success") {
        return data({ result: submission.reply(), toast: validationToast(submission.error) } satisfies FormActionData, {
          status: 400,
        });
      }
      await createOrganization(context.db, viewer.id, submission.value);
      return back({ title: "Organisation created", description: "You are now the admin of this organisation" });
    }

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
    if (error instanceof MembershipError || error instanceof AchievementError) return back(error.toast);
    throw error;
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
