import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { AuthCard } from "#app/components/auth-card.tsx";
import { CodeField } from "#app/components/code-field.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Checkbox } from "#app/components/ui/checkbox.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { redirectWithToast } from "#app/utils/cookies.server.ts";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { useFormReply } from "#app/utils/form-reply.ts";
import { runIntent } from "#app/utils/intent.server.ts";
import { requireAnonymous } from "#app/utils/session.server.ts";
import { pendingSignInUserId } from "#app/utils/two-factor.server.ts";
import { verifyCodeIntent, verifyRecoveryCodeIntent } from "./verify.server.ts";

// /auth/two-factor: the second sign-in step (docs/decisions/060). A password sign-in of an
// account with two-factor on comes here holding the pending sign-in's cookie (10 minutes, 5
// codes); a code from the authenticator app, or a recovery code (?method=recovery), finishes it.
// Plain forms: the page works the same without JavaScript.

export const meta: MetaFunction = () => [{ title: `Two-factor authentication · ${PRODUCT_NAME}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(context);
  if (!(await pendingSignInUserId(context, request))) {
    throw await redirectWithToast(context.env, request, "/auth", {
      title: "Please sign in again",
      description: "Your sign-in has ended. Please enter your email and password again.",
    });
  }
  const method = new URL(request.url).searchParams.get("method") === "recovery" ? "recovery" : "totp";
  return { method } as const;
}

const INTENTS = { "verify-code": verifyCodeIntent, "verify-recovery-code": verifyRecoveryCodeIntent };

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(context);
  const fields = await request.formData();
  return runIntent({ request, context }, INTENTS, { viewer: null, fields, back: "/auth" });
}

export default function TwoFactorPage() {
  const { method } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const recovery = method === "recovery";
  const intent = recovery ? "verify-recovery-code" : "verify-code";
  const reply = useFormReply(intent);
  const errors = reply?.result?.error?.code ?? undefined;
  const redirectTo = searchParams.get("redirectTo");
  const other = new URLSearchParams(redirectTo ? { redirectTo } : {});
  if (!recovery) other.set("method", "recovery");
  const otherHref = `/auth/two-factor${other.size ? `?${other}` : ""}`;
  return (
    <AuthCard
      title="Two-factor authentication"
      description={
        recovery
          ? "Enter one of the recovery codes you saved when you turned on two-factor authentication. Each code works once."
          : "Enter the 6-digit code from your authenticator app."
      }
    >
      <Form method="post" className="grid gap-4">
        <input type="hidden" name="redirectTo" value={redirectTo ?? ""} />
        <CodeField label={recovery ? "Recovery code" : "Code"} recovery={recovery} autoFocus errors={errors} />
        <div className="flex items-center gap-2">
          <Checkbox id="trustDevice" name="trustDevice" />
          <Label htmlFor="trustDevice">Trust this device for 30 days</Label>
        </div>
        <SubmitButton intent={intent} pendingText="Checking...">
          Verify
        </SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm text-muted-foreground">
        <Link to={otherHref} className="font-medium text-primary hover:underline">
          {recovery ? "Use a code from your authenticator app instead" : "Use a recovery code instead"}
        </Link>
        {" · "}
        <Link to="/auth" className="font-medium text-primary hover:underline">
          Back to sign in
        </Link>
      </p>
    </AuthCard>
  );
}
