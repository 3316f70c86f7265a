import { UNEXPECTED_FAILURE } from "#app/utils/form-reply.server.ts";
import { data, type ActionFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { CredentialPage } from "#app/components/credentials/credential-page.tsx";
import { IssuerStandingSection, VerificationResult } from "#app/components/credentials/verification-result.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent } from "#app/components/ui/card.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { expiryText, todayUtc } from "#app/utils/expiry.ts";
import { issuing } from "#app/services/credentials/issuer.server.ts";
import { verifierFor, verifyCredential } from "#app/services/credentials/verify.server.ts";
import { consumeRateLimit, limitOrUnavailable, RATE_LIMIT_MESSAGE } from "#app/utils/rate-limit.server.ts";

export const meta: MetaFunction = () => [{ title: `Verify a credential · ${PRODUCT_NAME}` }];

/** A credential is a few kilobytes; anything far larger is not one. */
const MAX_CREDENTIAL_BYTES = 256 * 1024;

const refuse = (error: string, status = 400) => data({ error, result: null }, { status });

/** Anyone checks a credential file or pasted JSON; a form post, so it works without JavaScript. */
export async function action({ request, context }: ActionFunctionArgs) {
  const length = Number(request.headers.get("Content-Length") ?? 0);
  if (length > MAX_CREDENTIAL_BYTES + 4096) return refuse("The credential is too large (at most 256 KB).", 413);
  const within = await limitOrUnavailable(consumeRateLimit(context.db, request, "verify-credential"));
  if (within === null) return refuse(UNEXPECTED_FAILURE, 500);
  if (!within) return refuse(RATE_LIMIT_MESSAGE, 429);
  // Anything but a form post (a script sending JSON, say) is told what the page takes.
  const form = await request.formData().catch(() => null);
  if (!form) return refuse("Choose a credential file or paste its JSON.");
  const file = form.get("file");
  const pasted = form.get("json");
  const text =
    file instanceof File && file.size > 0 ? await file.text() : typeof pasted === "string" ? pasted.trim() : "";
  if (!text) return refuse("Choose a credential file or paste its JSON.");
  if (text.length > MAX_CREDENTIAL_BYTES) return refuse("The credential is too large (at most 256 KB).", 413);
  let credential: unknown;
  try {
    credential = JSON.parse(text);
  } catch {
    return refuse("This is not JSON. A credential is a .json file.");
  }
  const origin = new URL(request.url).origin;
  const signer = issuing(context.db, context.env) ?? {
    db: context.db,
    origin,
    secret: context.env.CREDENTIAL_KEY_SECRET,
  };
  return { error: null, result: await verifyCredential(credential, verifierFor(signer, context.env.ENVIRONMENT)) };
}

export default function Verify() {
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <CredentialPage title="Verify a credential">
      <p className="text-muted-foreground">
        Check an Open Badges 3.0 credential: its signature, the issuer&apos;s key, whether it was revoked, its dates and
        its format.
      </p>
      <Card>
        <CardContent className="pt-6">
          <Form method="post" encType="multipart/form-data" className="grid gap-4">
            <div className="grid gap-2">
              <Label htmlFor="credential-file">Credential file</Label>
              <input
                id="credential-file"
                name="file"
                type="file"
                accept=".json,application/json,application/ld+json,application/vc"
                className="text-sm file:mr-3 file:rounded-md file:border file:bg-background file:px-3 file:py-1.5 file:text-foreground"
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="credential-json">Or paste the credential JSON</Label>
              <Textarea
                id="credential-json"
                name="json"
                rows={6}
                className="font-mono text-xs md:text-sm"
                spellCheck={false}
              />
            </div>
            <Button type="submit" className="w-fit" disabled={busy}>
              {busy ? "Verifying..." : "Verify"}
            </Button>
          </Form>
        </CardContent>
      </Card>
      {actionData?.error ? (
        <p role="alert" className="text-destructive">
          {actionData.error}
        </p>
      ) : null}
      {actionData?.result ? (
        <Card>
          <CardContent className="grid gap-4 pt-6">
            {actionData.result.summary ? (
              <p className="break-words">
                <span className="font-semibold">{actionData.result.summary.achievement}</span>, issued by{" "}
                {actionData.result.summary.issuer}
                {actionData.result.summary.validUntil
                  ? ` · ${expiryText(actionData.result.summary.validUntil, todayUtc())}`
                  : null}
              </p>
            ) : null}
            <VerificationResult verdict={actionData.result.verdict} checks={actionData.result.checks} />
            {actionData.result.issuer ? <IssuerStandingSection standing={actionData.result.issuer} /> : null}
          </CardContent>
        </Card>
      ) : null}
    </CredentialPage>
  );
}
