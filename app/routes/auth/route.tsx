import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { requireAnonymous } from "#app/utils/session.server.ts";
import { CheckEmailScreen } from "./check-email.tsx";
import { resendConfirmationAction } from "./check-email.server.ts";
import { MODES, modeFromUrl } from "./screens.ts";
import { SignInScreen } from "./sign-in.tsx";
import { signInAction } from "./sign-in.server.ts";
import { ChooseAccountTypeScreen, SignUpScreen } from "./sign-up.tsx";
import { signUpAction } from "./sign-up.server.ts";

// /auth: a thin dispatcher over the sign-in, sign-up and check-your-email screens, which live
// beside it, each with its own action. The URL's ?mode= picks the screen (screens.ts); a form's
// `intent` picks the action, whichever ?mode= it was posted to.

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${MODES[data?.mode ?? "signin"].title} · ${PRODUCT_NAME}` },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(context);
  const url = new URL(request.url);
  return { mode: modeFromUrl(url), email: url.searchParams.get("email") };
}

/** Each form's action, by the form's `intent`. */
const ACTIONS = {
  signin: signInAction,
  signup: signUpAction,
  "org-signup": signUpAction,
  "resend-verification": resendConfirmationAction,
} satisfies Record<string, (request: Request, context: AppLoadContext, formData: FormData) => Promise<unknown>>;

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(context);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const act =
    typeof intent === "string" && Object.hasOwn(ACTIONS, intent) ? ACTIONS[intent as keyof typeof ACTIONS] : null;
  if (!act) throw new Response("Unknown action", { status: 400 });
  return act(request, context, formData);
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
