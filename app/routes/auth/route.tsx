import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { runIntent } from "#app/utils/intent.server.ts";
import { requireAnonymous } from "#app/utils/session.server.ts";
import { CheckEmailScreen } from "./check-email.tsx";
import { resendConfirmationIntent } from "./check-email.server.ts";
import { MODES, modeFromUrl } from "./screens.ts";
import { SignInScreen } from "./sign-in.tsx";
import { passkeySignInIntent } from "./passkey-sign-in.server.ts";
import { signInIntent } from "./sign-in.server.ts";
import { ChooseAccountTypeScreen, SignUpScreen } from "./sign-up.tsx";
import { signUpOrganisationIntent, signUpPersonIntent } from "./sign-up.server.ts";

// /auth: a thin dispatcher over the sign-in, sign-up and check-your-email screens, which live
// beside it, each with its intent. The URL's ?mode= picks the screen (screens.ts); a form's
// `intent` picks the action, whichever ?mode= it was posted to.

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${MODES[data?.mode ?? "signin"].title} · ${PRODUCT_NAME}` },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(context);
  const url = new URL(request.url);
  return { mode: modeFromUrl(url), email: url.searchParams.get("email") };
}

/** Each form's action, by the form's `intent`, whichever ?mode= it was posted to. */
const INTENTS = {
  signin: signInIntent,
  "passkey-signin": passkeySignInIntent,
  signup: signUpPersonIntent,
  "org-signup": signUpOrganisationIntent,
  "resend-verification": resendConfirmationIntent,
};

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(context);
  const fields = await request.formData();
  return runIntent({ request, context }, INTENTS, { viewer: null, fields, back: "/auth" });
}

export default function AuthPage() {
  const { mode, email } = useLoaderData<typeof loader>();
  switch (mode) {
    case "choose":
      return <ChooseAccountTypeScreen />;
    case "signup":
      return <SignUpScreen organisation={false} />;
    case "org-signup":
      return <SignUpScreen organisation />;
    case "verify-email":
      return <CheckEmailScreen email={email} />;
    default:
      return <SignInScreen />;
  }
}
