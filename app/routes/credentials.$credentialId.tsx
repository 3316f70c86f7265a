import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import Download from "lucide-react/icons/download";
import { z } from "zod";
import { CredentialPage } from "#app/components/credentials/credential-page.tsx";
import { IssuerIdentityLine } from "#app/components/credentials/issuer-identity.tsx";
import { VerificationResult } from "#app/components/credentials/verification-result.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Card, CardContent } from "#app/components/ui/card.tsx";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { issuing } from "#app/services/credentials/issuer.server.ts";
import { servableCredential } from "#app/services/credentials/reissue.server.ts";
import { verifierFor, verifyCredential } from "#app/services/credentials/verify.server.ts";
import type { VerificationResult as Result } from "#app/services/credentials/verification-result.ts";
import { formatLongDate } from "#app/utils/dates.ts";
import { expiryText, todayUtc } from "#app/utils/expiry.ts";
import { findCredential } from "#db/queries/credentials/stored.ts";
import { acceptanceOfCredential } from "#db/queries/achievement-acceptances.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.summary?.achievement ?? "Credential"} · ${PRODUCT_NAME}` },
  { name: "robots", content: "noindex" },
];

const idSchema = z.uuid();

/**
 * A credential's human page: who issued what to whom, and whether it verifies now. The same URL
 * serves the credential's JSON to `Accept: application/ld+json` (workers/routes/credentials.ts).
 * Verifying here reads only this app's own data (a few ms of CPU, never on a passport).
 */
export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const id = idSchema.safeParse(params.credentialId);
  const [credential, acceptance] = id.success
    ? await Promise.all([findCredential(context.db, id.data), acceptanceOfCredential(context.db, id.data)])
    : [null, null];
  if (!credential) throw new Response("Credential not found", { status: 404 });
  const signer = issuing(context.db, context.env);
  let result: Result | null = null;
  if (credential.json && signer) {
    // What its download serves: signed again first when its key version was retired.
    const served = await servableCredential(signer, { ...credential, json: credential.json });
    result = await verifyCredential(served, verifierFor(signer, context.env.ENVIRONMENT));
  }
  return {
    id: credential.id,
    recipientName: credential.recipientName,
    issuedAt: credential.issuedAt.toISOString(),
    // A purged recipient's credential keeps only its revoked shell.
    verdict: result?.verdict ?? (credential.revokedAt ? "Revoked" : "Invalid"),
    checks: result?.checks ?? [],
    summary: result?.summary ?? null,
    issuer: result?.issuer ?? null,
    available: Boolean(credential.json),
    // A membership's credentials (decision 070): the newer one that replaces this one, which
    // still verifies (superseded, not revoked), and the older one the newer names as related.
    supersededBy: credential.supersededBy,
    replaces: credential.json ? replacedCredentialOf(credential.json, new URL(request.url).origin) : null,
    // The holder's signed acceptance (decision 066), served at /credentials/{id}/acceptance.
    acceptance: acceptance && { holder: acceptance.holder, signedAt: acceptance.signedAt.toISOString() },
  };
}

/** The path of the earlier credential of ours that this one names as replaced (`achievement.related`), if any. */
function replacedCredentialOf(json: string, origin: string) {
  const achievement = (JSON.parse(json) as { credentialSubject?: { achievement?: { related?: unknown } } })
    .credentialSubject?.achievement;
  const related = ([] as unknown[]).concat(achievement?.related ?? []);
  const prefix = `${origin}/credentials/`;
  const older = related.find(
    (entry): entry is { id: string } =>
      typeof (entry as { id?: unknown })?.id === "string" && (entry as { id: string }).id.startsWith(prefix),
  );
  const olderId = older?.id.slice(prefix.length);
  return olderId && idSchema.safeParse(olderId).success ? olderId : null;
}

export default function CredentialRoute() {
  const {
    id,
    recipientName,
    issuedAt,
    verdict,
    checks,
    summary,
    issuer,
    available,
    acceptance,
    supersededBy,
    replaces,
  } = useLoaderData<typeof loader>();
  return (
    <CredentialPage title={summary?.achievement ?? "Credential"}>
      <Card>
        <CardContent className="grid gap-3 pt-6">
          <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
            {summary ? (
              <>
                <dt className="text-muted-foreground">Issuer</dt>
                <dd className="grid gap-1 break-words">
                  {summary.issuer}
                  {issuer ? <IssuerIdentityLine identity={issuer.identity} /> : null}
                </dd>
              </>
            ) : null}
            {recipientName ? (
              <>
                <dt className="text-muted-foreground">Recipient</dt>
                <dd className="break-words">{recipientName}</dd>
              </>
            ) : null}
            {summary?.awardedDate ? (
              <>
                <dt className="text-muted-foreground">Awarded</dt>
                <dd>{formatLongDate(summary.awardedDate.slice(0, 10))}</dd>
              </>
            ) : null}
            <dt className="text-muted-foreground">Issued</dt>
            <dd>{formatLongDate(issuedAt.slice(0, 10))}</dd>
            {supersededBy ? (
              <>
                <dt className="text-muted-foreground">Replaced</dt>
                <dd className="break-words">
                  <Link to={`/credentials/${supersededBy}`} className="underline">
                    A newer version
                  </Link>{" "}
                  replaces this credential. It was not revoked: what it said was true when it was issued.
                </dd>
              </>
            ) : null}
            {replaces ? (
              <>
                <dt className="text-muted-foreground">Replaces</dt>
                <dd className="break-words">
                  <Link to={`/credentials/${replaces}`} className="underline">
                    An earlier version
                  </Link>{" "}
                  of this credential.
                </dd>
              </>
            ) : null}
            {summary?.validUntil ? (
              <>
                <dt className="text-muted-foreground">Expiry</dt>
                <dd>{expiryText(summary.validUntil, todayUtc())}</dd>
              </>
            ) : null}
            {acceptance ? (
              <>
                <dt className="text-muted-foreground">Acceptance</dt>
                <dd className="grid gap-1 break-words">
                  <span>
                    Accepted by the holder, signed by <code className="break-all">{acceptance.holder}</code>, on{" "}
                    {formatLongDate(acceptance.signedAt.slice(0, 10))}
                  </span>
                  <a href={`/credentials/${id}/acceptance`} className="text-sm underline">
                    The signed acceptance (JSON)
                  </a>
                </dd>
              </>
            ) : null}
          </dl>
        </CardContent>
      </Card>
      {checks.length > 0 ? (
        <VerificationResult verdict={verdict} checks={checks} />
      ) : (
        <p role="status" className="text-lg font-semibold">
          Status: {verdict}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {available ? (
          <a href={`/credentials/${id}/download`} download className={buttonVariants({ variant: "outline" })}>
            <Download aria-hidden /> Download credential
          </a>
        ) : null}
        <Link to="/verify" className={buttonVariants({ variant: "outline" })}>
          Verify a credential
        </Link>
      </div>
      <p className="text-sm text-muted-foreground">
        An Open Badges 3.0 credential, signed by its issuer (eddsa-rdfc-2022). Any Open Badges or Verifiable Credentials
        verifier can check it without {PRODUCT_NAME}.
      </p>
    </CredentialPage>
  );
}
