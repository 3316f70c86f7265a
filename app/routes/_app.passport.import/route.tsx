import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { FormError } from "#app/components/form-messages.tsx";
import { TextareaField } from "#app/components/forms.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { PassportSubpageHeader } from "#app/components/passport/passport-subpage-header.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { IMPORT_REFUSED } from "#app/services/imports/imported-credentials.server.ts";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { replyRefusal, UNEXPECTED_FAILURE, withHttpErrors } from "#app/utils/form-reply.server.ts";
import type { FormReply } from "#app/utils/form-reply.ts";
import { importCheckValidator } from "#app/utils/form-validators.ts";
import { runIntent } from "#app/utils/intent.server.ts";
import { consumeUserRateLimit, limitOrUnavailable, RATE_LIMIT_MESSAGE } from "#app/utils/rate-limit.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { useValidatedForm } from "#app/utils/use-validated-form.ts";
import {
  ImportResultCard,
  ImportWalletProofCard,
  type CheckedImport,
} from "#app/components/passport/import-result-card.tsx";
import { importProofPage } from "#app/services/imports/wallet-proof.server.ts";
import { addImportIntent } from "./add-import.server.ts";
import { proveWalletIntent } from "./prove-wallet.server.ts";
import { checkImportIntent } from "./check-import.server.ts";

export const meta: MetaFunction = () => [{ title: `Import a badge or credential · ${PRODUCT_NAME}` }];

/** A file of 5 MB and the form's framing: anything larger is refused before it is read. */
const MAX_BODY_BYTES = 5 * 1024 * 1024 + 64 * 1024;

/** The wallet proof being shown (`?prove=`, decision 099): an exchange of the person's own. */
const PROVE_PARAM = "prove";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const url = new URL(request.url);
  const exchangeId = url.searchParams.get(PROVE_PARAM);
  if (!exchangeId || !z.uuid().safeParse(exchangeId).success) return { proving: null };
  // Once the wallet answered, each look checks the import again (outside reads): counted as a check.
  if (!(await consumeUserRateLimit(context.db, viewer.id, "import-credential")))
    throw new Response(RATE_LIMIT_MESSAGE, { status: 429 });
  const origin = context.env.APP_URL ?? url.origin;
  const page = await withHttpErrors(importProofPage(context, viewer, exchangeId, { origin }));
  return { proving: { ...page, exchangeId } };
}

const INTENTS = { "check-import": checkImportIntent, "add-import": addImportIntent, "prove-wallet": proveWalletIntent };

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const refuse = (description: string, status: number) =>
    replyRefusal({ formId: "check-import" }, { title: IMPORT_REFUSED, description }, status);
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_BODY_BYTES) {
    return refuse("The file is larger than 5 MB; a badge or credential is far smaller.", 413);
  }
  const within = await limitOrUnavailable(consumeUserRateLimit(context.db, viewer.id, "import-credential"));
  if (within === null) return refuse(UNEXPECTED_FAILURE, 500);
  if (!within) return refuse(RATE_LIMIT_MESSAGE, 429);
  const fields = await request.formData().catch(() => null);
  if (!fields) return refuse("Choose a badge file or paste its JSON, JWT or address.", 400);
  return runIntent({ request, context }, INTENTS, { viewer, fields, back: "/passport/import" });
}

type Checked = CheckedImport & { source: string };

export default function ImportCredential() {
  const { proving } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as Checked | FormReply | undefined;
  const checked = answer && "checked" in answer ? answer : null;
  // The action's check; else, once the wallet answered, the loader's check with the DID it proved.
  const shown: CheckedImport | null = checked ?? (proving?.checked ? { ...proving, checked: proving.checked } : null);
  const reply = answer && "formId" in answer && answer.formId === "check-import" ? answer : undefined;
  const { fields, form, formProps } = useValidatedForm({
    id: "check-import",
    validator: importCheckValidator,
    actionData: reply,
    defaultValue: { source: checked?.source ?? "" },
  });
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <PassportSubpageHeader title="Import a badge or credential">
        Bring a badge earned elsewhere. It is checked first: who signed it, that it was not changed or revoked, its
        dates, and that it was issued to you. Nothing is added until you choose to.
      </PassportSubpageHeader>
      <Card>
        <CardHeader>
          <CardTitle as="h2">Your badge</CardTitle>
          <CardDescription>
            A baked badge image (PNG or SVG), an Open Badges 2.0 or 3.0 file, a Verifiable Credential (JSON or JWT), or
            the address of a hosted badge. At most 5 MB.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {/* Here, not at the page's `?prove=`: a new check leaves the wallet's proof behind. */}
          <Form
            method="post"
            encType="multipart/form-data"
            {...formProps}
            action="/passport/import"
            className="grid gap-4"
          >
            <div className="grid gap-2">
              <Label htmlFor="import-file">Badge file</Label>
              <input
                id="import-file"
                name="file"
                type="file"
                accept=".png,.svg,.json,.jwt,.txt,image/png,image/svg+xml,application/json,application/ld+json,text/plain"
                className="text-sm file:mr-3 file:rounded-md file:border file:bg-background file:px-3 file:py-1.5 file:text-foreground"
              />
            </div>
            <TextareaField
              field={fields.source}
              label="Or paste its JSON, JWT or address"
              rows={5}
              className="[&_textarea]:font-mono [&_textarea]:text-xs"
              spellCheck={false}
            />
            <FormError errors={form.errors} />
            <SubmitButton intent="check-import" className="w-fit" pendingText="Checking...">
              Check
            </SubmitButton>
          </Form>
        </CardContent>
      </Card>
      {proving?.proof ? (
        <ImportWalletProofCard proof={proving.proof} href={`/passport/import?${PROVE_PARAM}=${proving.exchangeId}`} />
      ) : proving?.stale ? (
        <p role="status" className="text-sm">
          {proving.stale}
        </p>
      ) : null}
      {shown ? <ImportResultCard checked={shown} /> : null}
    </div>
  );
}
