import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Suspense, useEffect } from "react";
import { SecurityForms as SecurityFormsNow } from "#app/components/settings/security-forms.tsx";
import { passkeysListPart } from "#app/services/passkeys.server.ts";
import { LoadAtOnce, lazyAfterInteraction } from "#app/utils/after-interaction.tsx";
import { noteInteraction } from "#app/utils/first-interaction.ts";
import { requireViewer } from "#app/utils/session.server.ts";
import { runSettingsIntent } from "#app/utils/settings-section.server.ts";
import { authenticatorOf, authenticatorSetup } from "#app/utils/two-factor.server.ts";
import { runParts } from "#db/queries/batch-parts.ts";
import { MAX_PASSKEYS } from "#db/queries/passkeys.ts";
import { twoFactorPart } from "#db/queries/two-factor.ts";
import { addPasskeyIntent } from "./add-passkey.server.ts";
import { changePasswordIntent } from "./change-password.server.ts";
import { confirmTwoFactorIntent } from "./confirm-two-factor.server.ts";
import { disableTwoFactorIntent } from "./disable-two-factor.server.ts";
import { enableTwoFactorIntent } from "./enable-two-factor.server.ts";
import { passkeyOptionsIntent } from "./passkey-options.server.ts";
import { regenerateRecoveryCodesIntent } from "./regenerate-recovery-codes.server.ts";
import { removePasskeyIntent } from "./remove-passkey.server.ts";
import { renamePasskeyIntent } from "./rename-passkey.server.ts";

/** The forms: rendered at once on the server, hydrated after the first interaction (decision 049). */
const SecurityForms = import.meta.env.SSR
  ? SecurityFormsNow
  : lazyAfterInteraction(() =>
      import("#app/components/settings/security-forms.tsx").then((module) => ({ default: module.SecurityForms })),
    );

const SECURITY_PATH = "/settings/security";

// /settings/security: the password, passkeys and two-factor sign-in (decisions 060, 061).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const [twoFactorRow, passkeys] = await runParts(context.db, [
    twoFactorPart(context.db, viewer.id),
    passkeysListPart(context, viewer.id),
  ]);
  const authenticator = await authenticatorOf(context, twoFactorRow);
  // A setup waiting for its first code is shown again until it is confirmed (or started over).
  const setup =
    !authenticator.enabled && authenticator.secret && !authenticator.verified
      ? authenticatorSetup(authenticator.secret, viewer.email)
      : null;
  return {
    twoFactor: { enabled: authenticator.enabled, setup },
    passkeys: { items: passkeys, max: MAX_PASSKEYS, now: Date.now() },
  };
}

const INTENTS = {
  "change-password": changePasswordIntent,
  "enable-two-factor": enableTwoFactorIntent,
  "confirm-two-factor": confirmTwoFactorIntent,
  "regenerate-recovery-codes": regenerateRecoveryCodesIntent,
  "disable-two-factor": disableTwoFactorIntent,
  "passkey-options": passkeyOptionsIntent,
  "add-passkey": addPasskeyIntent,
  "rename-passkey": renamePasskeyIntent,
  "remove-passkey": removePasskeyIntent,
};

export const action = (args: ActionFunctionArgs) => runSettingsIntent(args, INTENTS, SECURITY_PATH);

export default function SecuritySection() {
  const { twoFactor, passkeys } = useLoaderData<typeof loader>();
  // 'Continue' posted before the forms hydrated (a plain form post): its answer's 'Create passkey'
  // needs them now, not at the page's next interaction.
  const answer = useActionData<typeof action>();
  const passkeyOptionsShown = Boolean(answer && typeof answer === "object" && "passkeyOptions" in answer);
  useEffect(() => {
    if (passkeyOptionsShown) noteInteraction();
  }, [passkeyOptionsShown]);
  return (
    <Suspense fallback={<LoadAtOnce />}>
      <SecurityForms twoFactor={twoFactor} passkeys={passkeys} />
    </Suspense>
  );
}
