import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import ArrowLeft from "lucide-react/icons/arrow-left";
import Download from "lucide-react/icons/download";
import { ConfirmAction } from "#app/components/confirm-action.tsx";
import { CopyLink } from "#app/components/copy-link.tsx";
import { FieldError } from "#app/components/form-messages.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Checkbox } from "#app/components/ui/checkbox.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { OWN_STRONG_FACTOR_FIRST, STRONG_FACTOR_SETUP_PATH } from "#app/utils/admin-sign-in.ts";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { formatShortDate } from "#app/utils/dates.ts";
import { useFormReply } from "#app/utils/form-reply.ts";
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

type Domain = ReturnType<typeof useLoaderData<typeof loader>>["domains"][number];

const STATUS_LABELS: Record<Domain["status"], { label: string; variant: "success" | "secondary" | "destructive" }> = {
  verified: { label: "Verified", variant: "success" },
  pending: { label: "Not verified yet", variant: "secondary" },
  lapsed: { label: "Lapsed", variant: "destructive" },
};

export default function OrganizationProfile() {
  const { organizationName, domains, adminSignIn, membershipCredentials } = useLoaderData<typeof loader>();
  const added = useFormReply("add-domain");
  const location = useLocation();
  const typed = added?.result?.initialValue?.domain;
  const error = added?.result?.error?.domain?.[0];
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <div className="grid gap-2">
        <Link to="/dashboard" className={buttonVariants({ variant: "ghost", size: "sm", className: "w-fit" })}>
          <ArrowLeft aria-hidden /> Dashboard
        </Link>
        <h1 className="text-3xl font-bold tracking-tight">Organisation profile</h1>
        <p className="break-words text-muted-foreground">{organizationName}</p>
      </div>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Verified domains</CardTitle>
          <CardDescription>
            Prove that {organizationName} owns a domain, such as your website&apos;s. Credentials you give then name the
            domain, and anyone checking them sees &quot;Issuer&apos;s domain verified&quot; instead of a name you chose
            yourself.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">
          <Form method="post" className="grid gap-2" id="add-domain">
            <Label htmlFor="domain">Domain</Label>
            <div className="flex flex-col gap-2 sm:flex-row">
              <Input
                id="domain"
                name="domain"
                placeholder="acme.example"
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                required
                maxLength={300}
                defaultValue={typeof typed === "string" ? typed : undefined}
                // Refused, the typed value stays; added, the page's new location empties the field.
                key={added ? "refused" : location.key}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? "domain-error" : undefined}
              />
              <SubmitButton intent="add-domain" className="shrink-0" pendingText="Adding...">
                Add domain
              </SubmitButton>
            </div>
            <FieldError id="domain-error" errors={error ? [error] : undefined} />
          </Form>

          {domains.length === 0 ? (
            <p className="text-sm text-muted-foreground">No domains yet. Add the domain your organisation uses.</p>
          ) : (
            <ul className="grid gap-4">
              {domains.map((domain) => (
                <DomainItem key={domain.id} domain={domain} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

      <AdminSignIn setting={adminSignIn} />
      <MembershipCredentials enabled={membershipCredentials} organizationName={organizationName} />
    </div>
  );
}

/** Whether approved members get a 'Member of …' entry with its credential (decision 070). */
function MembershipCredentials({ enabled, organizationName }: { enabled: boolean; organizationName: string }) {
  const refused = useFormReply("set-membership-credentials");
  const location = useLocation();
  const error = refused ? (refused.toast.description ?? refused.toast.title) : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Membership credentials</CardTitle>
        <CardDescription>
          A member you approve, or who joins through your invite link, gets &apos;Member of {organizationName}&apos; on
          their passport, with a credential signed by {organizationName}. When they leave or are removed, it shows the
          dates they were a member. Memberships are not counted as achievements.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" id="set-membership-credentials" className="grid gap-4">
          <SettingCheckbox
            name="membershipCredentials"
            checked={enabled}
            resetKey={refused ? "refused" : location.key}
            label="Give members a membership credential"
            note="Turning this off stops new entries; entries already given stay, and are dated when a membership ends."
          />
          {error ? (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          ) : null}
          <div>
            <SubmitButton intent="set-membership-credentials" pendingText="Saving...">
              Save
            </SubmitButton>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}

/** Whether the organisation's admins must use two-factor authentication or a passkey (decision 062). */
function AdminSignIn({ setting }: { setting: ReturnType<typeof useLoaderData<typeof loader>>["adminSignIn"] }) {
  const refused = useFormReply("set-admin-sign-in");
  const location = useLocation();
  const without = setting.adminsWithoutStrongFactor;
  // Turning it on is refused until the admin holds a strong factor themselves: said before they try.
  const ownFirst = !setting.requireTwoFactor && !setting.adminHoldsStrongFactor;
  const error = refused ? (refused.toast.description ?? refused.toast.title) : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Admin sign-in</CardTitle>
        <CardDescription>
          An admin without two-factor authentication or a passkey is asked to set one up before the admin dashboard
          opens. Members who are not admins are not affected.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" id="set-admin-sign-in" className="grid gap-4">
          <SettingCheckbox
            name="requireTwoFactor"
            checked={setting.requireTwoFactor}
            // A refused save shows the saved state again.
            resetKey={refused ? "refused" : location.key}
            label="Require two-factor authentication or a passkey for admins"
            note={
              without === 0
                ? "Every admin has two-factor authentication or a passkey."
                : `${without === 1 ? "1 admin has" : `${without} admins have`} no two-factor authentication or passkey yet.`
            }
          />
          {error || ownFirst ? (
            <p role={error ? "alert" : undefined} className={error ? "text-sm text-destructive" : "text-sm"}>
              {error ?? OWN_STRONG_FACTOR_FIRST}{" "}
              <Link to={STRONG_FACTOR_SETUP_PATH} className="underline underline-offset-4">
                Set up two-factor authentication
              </Link>
            </p>
          ) : null}
          <div>
            <SubmitButton intent="set-admin-sign-in" pendingText="Saving...">
              Save
            </SubmitButton>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}

/** An organisation setting's checkbox, its label and a note under it. */
function SettingCheckbox({
  name,
  checked,
  resetKey,
  label,
  note,
}: {
  name: string;
  checked: boolean;
  resetKey: string;
  label: string;
  note: string;
}) {
  return (
    <div className="flex items-start gap-3">
      <Checkbox
        id={name}
        name={name}
        defaultChecked={checked}
        key={resetKey}
        className="mt-0.5"
        aria-describedby={`${name}-note`}
      />
      <div className="grid gap-1">
        <Label htmlFor={name}>{label}</Label>
        <p id={`${name}-note`} className="text-sm text-muted-foreground">
          {note}
        </p>
      </div>
    </div>
  );
}

function DomainItem({ domain }: { domain: Domain }) {
  const status = STATUS_LABELS[domain.status];
  const verifyFormId = `verify-domain-${domain.id}`;
  const refused = useFormReply(verifyFormId);
  return (
    <li className="grid gap-3 rounded-lg border p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <h3 className="font-semibold break-all">{domain.domain}</h3>
          <Badge variant={status.variant}>{status.label}</Badge>
        </div>
        <ConfirmAction
          id={`remove-domain-${domain.id}`}
          intent="remove-domain"
          fields={{ domainId: domain.id }}
          trigger="Remove"
          triggerVariant="outline"
          triggerSize="sm"
          title={`Remove ${domain.domain}?`}
          description={
            domain.status === "verified"
              ? "New credentials will no longer name this domain, and your organisation's pages will say its name is not verified. You can add it again later."
              : "The record shown here stops counting. You can add the domain again later."
          }
          confirm="Remove domain"
        />
      </div>

      {domain.status === "verified" ? (
        <>
          <p className="text-sm text-muted-foreground">
            Verified {domain.verifiedAt ? formatShortDate(domain.verifiedAt) : ""}
            {domain.lastCheckedAt ? `, last checked ${formatShortDate(domain.lastCheckedAt)}` : ""}. Keep the TXT record
            published: it is checked every day.
          </p>
          <div className="grid gap-2">
            <p className="text-sm">
              Let anyone confirm from your domain alone that it stands behind your credentials: publish this file at{" "}
              <code className="break-all">https://{domain.domain}/.well-known/did-configuration.json</code>.
            </p>
            <a
              href={`/dashboard/organization/did-configuration/${domain.id}`}
              download="did-configuration.json"
              className={buttonVariants({ variant: "outline", size: "sm", className: "w-fit" })}
            >
              <Download aria-hidden /> did-configuration.json
            </a>
          </div>
        </>
      ) : (
        <>
          <p className="text-sm text-muted-foreground">
            {domain.status === "lapsed"
              ? "The record was not found in three daily checks in a row. Publish it again, then verify."
              : "Publish this TXT record with your DNS provider, then verify. DNS changes can take a few minutes."}
          </p>
          <dl className="grid gap-2 text-sm">
            <RecordPart term="Name" value={domain.recordName} domain={domain.domain} />
            <dt className="font-medium">Type</dt>
            <dd>TXT</dd>
            <RecordPart term="Value" value={domain.recordValue} domain={domain.domain} />
          </dl>
          <Form method="post" id={verifyFormId} className="grid gap-2">
            <input type="hidden" name="domainId" value={domain.id} />
            <SubmitButton intent="verify-domain" className="w-fit" pendingText="Looking up...">
              Verify domain
            </SubmitButton>
            {refused ? (
              <p role="alert" className="text-sm text-destructive">
                {refused.toast.description ?? refused.toast.title}
              </p>
            ) : null}
          </Form>
        </>
      )}
    </li>
  );
}

/** A part of the record to publish, with a Copy button. */
function RecordPart({ term, value, domain }: { term: "Name" | "Value"; value: string; domain: string }) {
  return (
    <>
      <dt className="font-medium">{term}</dt>
      <dd>
        <CopyLink
          url={value}
          label={`TXT record ${term.toLowerCase()} for ${domain}`}
          buttonLabel="Copy"
          toast={{ title: "Copied", description: `The record's ${term.toLowerCase()} is on your clipboard.` }}
        />
      </dd>
    </>
  );
}
