import { Form, useLocation } from "@remix-run/react";
import Download from "lucide-react/icons/download";
import { ConfirmAction } from "#app/components/confirm-action.tsx";
import { CopyLink } from "#app/components/copy-link.tsx";
import { FieldError } from "#app/components/form-messages.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { formatShortDate } from "#app/utils/dates.ts";
import { useFormReply } from "#app/utils/form-reply.ts";
import type { DomainStatus } from "#db/enums.ts";

/** A domain the organisation claims, with the TXT record that proves it (dates as ISO strings). */
export type OrganizationDomain = {
  id: string;
  domain: string;
  status: DomainStatus;
  recordName: string;
  recordValue: string;
  verifiedAt: string | null;
  lastCheckedAt: string | null;
};

const STATUS_LABELS: Record<DomainStatus, { label: string; variant: "success" | "secondary" | "destructive" }> = {
  verified: { label: "Verified", variant: "success" },
  pending: { label: "Not verified yet", variant: "secondary" },
  lapsed: { label: "Lapsed", variant: "destructive" },
};

/** The organisation's domains: add one, then verify it by its TXT record (decision 055). */
export function VerifiedDomains({
  organizationName,
  domains,
}: {
  organizationName: string;
  domains: OrganizationDomain[];
}) {
  const added = useFormReply("add-domain");
  const location = useLocation();
  const typed = added?.result?.initialValue?.domain;
  const error = added?.result?.error?.domain?.[0];
  return (
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
  );
}

function DomainItem({ domain }: { domain: OrganizationDomain }) {
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
