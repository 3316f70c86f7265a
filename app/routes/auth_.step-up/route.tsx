import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { AuthCard } from "#app/components/auth-card.tsx";
import { CodeField } from "#app/components/code-field.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { strongFactorsOf } from "#app/services/accounts/confirmed-session.server.ts";
import { STEP_UP_PATH, stepUpPath, STRONG_FACTOR_SETUP_PATH } from "#app/utils/admin-sign-in.ts";
import { strongSignInRequired, usedStrongFactor } from "#app/utils/authorization.server.ts";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { safeRedirectPath } from "#app/utils/cookies.server.ts";
import { useFormReply } from "#app/utils/form-reply.ts";
import { runIntent } from "#app/utils/intent.server.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { confirmCodeIntent, confirmPasskeyIntent, confirmRecoveryCodeIntent } from "./confirm.server.ts";
import { PasskeyConfirm } from "./passkey-confirm.tsx";

// /auth/step-up: a session signed in with the password alone confirms a strong factor (decision
// 089), as an organisation that asks its admins for one requires before its admin pages open.
// The person's passkey, or a code from their authenticator app (or a recovery code, ?method=recovery),
// confirms this session; then they go back where they were going. Signed-in people only.

export const meta: MetaFunction = () => [{ title: `Confirm it's you · ${PRODUCT_NAME}` }];

const GENERIC =
  "You signed in with your password only. Confirm it's you with your passkey or a code from your authenticator app.";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"), "/dashboard");
  // Confirmed already (or signed in with a strong factor): nothing to do here.
  if (usedStrongFactor(context, viewer.id)) throw redirect(redirectTo);
  const factors = await strongFactorsOf(context, viewer.id);
  if (!factors.code && !factors.passkey) throw redirect(STRONG_FACTOR_SETUP_PATH);
  const active = viewer.activeOrganization;
  const asking = active?.isAdmin && active.strongFactorRequired ? active.name : null;
  return {
    description: asking ? strongSignInRequired(asking).description : GENERIC,
    factors,
    recovery: factors.code && url.searchParams.get("method") === "recovery",
    redirectTo,
  };
}

const INTENTS = {
  "confirm-code": confirmCodeIntent,
  "confirm-recovery-code": confirmRecoveryCodeIntent,
  "confirm-passkey": confirmPasskeyIntent,
};

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const fields = await request.formData();
  const back = safeRedirectPath(fields.get("redirectTo"), "/dashboard");
  return runIntent({ request, context }, INTENTS, {
    viewer,
    fields,
    back: stepUpPath(back),
  });
}

export default function StepUpPage() {
  const { description, factors, recovery, redirectTo } = useLoaderData<typeof loader>();
  const intent = recovery ? "confirm-recovery-code" : "confirm-code";
  const reply = useFormReply(intent);
  const errors = reply?.result?.error?.code ?? reply?.result?.error?.[""] ?? undefined;
  const other = new URLSearchParams({ redirectTo });
  if (!recovery) other.set("method", "recovery");
  return (
    <AuthCard title="Confirm it's you" description={description}>
      <div className="grid gap-6">
        {factors.passkey ? <PasskeyConfirm redirectTo={redirectTo} primary={!recovery} /> : null}
        {factors.passkey && factors.code ? (
          <p className="text-center text-xs text-muted-foreground uppercase">or</p>
        ) : null}
        {factors.code ? (
          <Form method="post" className="grid gap-4">
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <CodeField
              label={recovery ? "Recovery code" : "Code from your authenticator app"}
              recovery={recovery}
              autoFocus={!factors.passkey || recovery}
              errors={errors}
            />
            <SubmitButton
              intent={intent}
              variant={factors.passkey && !recovery ? "outline" : "default"}
              pendingText="Checking..."
            >
              Confirm with {recovery ? "a recovery code" : "a code"}
            </SubmitButton>
            <Link
              to={`${STEP_UP_PATH}?${other}`}
              className="text-center text-sm font-medium text-primary hover:underline"
            >
              {recovery ? "Use a code from your authenticator app instead" : "Use a recovery code instead"}
            </Link>
          </Form>
        ) : null}
        <div className="flex flex-wrap items-center justify-center gap-2 border-t pt-4 text-sm text-muted-foreground">
          <Link to="/settings" className="font-medium text-primary hover:underline">
            Go to Settings
          </Link>
          <span aria-hidden>·</span>
          <Form method="post" action="/auth/signout">
            <Button type="submit" variant="link" className="h-auto p-0">
              Sign out
            </Button>
          </Form>
        </div>
      </div>
    </AuthCard>
  );
}
