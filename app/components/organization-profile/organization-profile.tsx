import { Link } from "@remix-run/react";
import ArrowLeft from "lucide-react/icons/arrow-left";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { AdminSignIn, type AdminSignInSetting } from "./admin-sign-in.tsx";
import { MembershipCredentials } from "./membership-credentials.tsx";
import { VerifiedDomains, type OrganizationDomain } from "./verified-domains.tsx";

/** /dashboard/organization: the active organisation's domains and settings, for its admin. */
export function OrganizationProfile({
  organizationName,
  domains,
  adminSignIn,
  membershipCredentials,
}: {
  organizationName: string;
  domains: OrganizationDomain[];
  adminSignIn: AdminSignInSetting;
  membershipCredentials: boolean;
}) {
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <div className="grid gap-2">
        <Link to="/dashboard" className={buttonVariants({ variant: "ghost", size: "sm", className: "w-fit" })}>
          <ArrowLeft aria-hidden /> Dashboard
        </Link>
        <h1 className="text-3xl font-bold tracking-tight">Organisation profile</h1>
        <p className="break-words text-muted-foreground">{organizationName}</p>
      </div>

      <VerifiedDomains organizationName={organizationName} domains={domains} />
      <AdminSignIn setting={adminSignIn} />
      <MembershipCredentials enabled={membershipCredentials} organizationName={organizationName} />
    </div>
  );
}
