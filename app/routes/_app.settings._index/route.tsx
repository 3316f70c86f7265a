import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Suspense } from "react";
import { ProfileForms as ProfileFormsNow } from "#app/components/settings/profile-forms.tsx";
import { LoadAtOnce, lazyAfterInteraction } from "#app/utils/after-interaction.tsx";
import { requireViewer } from "#app/utils/session.server.ts";
import { runSettingsIntent, SETTINGS_PATH } from "#app/utils/settings-section.server.ts";
import { sendFeedbackIntent } from "./send-feedback.server.ts";
import { updatePreferencesIntent } from "./update-preferences.server.ts";
import { updateProfileIntent } from "./update-profile.server.ts";

/** The forms: rendered at once on the server, hydrated after the first interaction (decision 049). */
const ProfileForms = import.meta.env.SSR
  ? ProfileFormsNow
  : lazyAfterInteraction(() =>
      import("#app/components/settings/profile-forms.tsx").then((module) => ({ default: module.ProfileForms })),
    );

// /settings: the profile, privacy and e-mail preferences, and feedback. It shows the viewer's own
// profile, which the signed-in layout has read already. An archived account may be here: the
// layout shows it the archived notice instead.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireViewer(request, context, { allowArchived: true });
  return null;
}

const INTENTS = {
  "update-profile": updateProfileIntent,
  "update-preferences": updatePreferencesIntent,
  "send-feedback": sendFeedbackIntent,
};

export const action = (args: ActionFunctionArgs) => runSettingsIntent(args, INTENTS, SETTINGS_PATH);

export default function ProfileSection() {
  return (
    <Suspense fallback={<LoadAtOnce />}>
      <ProfileForms />
    </Suspense>
  );
}
