import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { OrganizationProfile } from "#app/components/organization-profile/organization-profile.tsx";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { runIntent } from "#app/utils/intent.server.ts";
import { requireActiveOrganizationAdmin, requireViewer } from "#app/utils/session.server.ts";
import { domainsOf, recordNameOf, recordValueOf } from "#app/services/organization-domains.server.ts";
import { adminSignInOf } from "#app/services/organizations.server.ts";
import { addDomainIntent } from "./add-domain.server.ts";
import { removeDomainIntent } from "./remove-domain.server.ts";
import { setAdminSignInIntent } from "./set-admin-sign-in.server.ts";
import { setMembershipCredentialsIntent } from "./set-membership-credentials.server.ts";
import { verifyDomainIntent } from "./verify-domain.server.ts";

export const meta: MetaFunction = () => [{ title: `Organisation profile · ${PRODUCT_NAME}` }];

/** The admin of the active organisation only; anyone else goes back to the dashboard. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const active = await requireActiveOrganizationAdmin(request, context, viewer);
  const [claims, adminSignIn] = await Promise.all([
    domainsOf(context, viewer.id, active.id),
    adminSignInOf(context, viewer.id, active.id),
  ]);
  return {
    organizationName: active.name,
    adminSignIn: {
      requireTwoFactor: adminSignIn.requireTwoFactor,
      adminHoldsStrongFactor: adminSignIn.adminHoldsStrongFactor,
      adminsWithoutStrongFactor: adminSignIn.adminsWithoutStrongFactor,
    },
    membershipCredentials: adminSignIn.membershipCredentials,
    domains: claims.map((claim) => ({
      id: claim.id,
      domain: claim.domain,
      status: claim.status,
      recordName: recordNameOf(claim.domain),
      recordValue: recordValueOf(claim.token),
      verifiedAt: claim.verifiedAt?.toISOString() ?? null,
      lastCheckedAt: claim.lastCheckedAt?.toISOString() ?? null,
    })),
  };
}

/** Every form the page posts, by its `intent`. */
const INTENTS = {
  "add-domain": addDomainIntent,
  "verify-domain": verifyDomainIntent,
  "remove-domain": removeDomainIntent,
  "set-admin-sign-in": setAdminSignInIntent,
  "set-membership-credentials": setMembershipCredentialsIntent,
};

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  return runIntent({ request, context }, INTENTS, {
    viewer,
    fields: await request.formData(),
    back: "/dashboard/organization",
  });
}

export default function OrganizationProfilePage() {
  const { organizationName, domains, adminSignIn, membershipCredentials } = useLoaderData<typeof loader>();
  return (
    <OrganizationProfile
      organizationName={organizationName}
      domains={domains}
      adminSignIn={adminSignIn}
      membershipCredentials={membershipCredentials}
    />
  );
}
