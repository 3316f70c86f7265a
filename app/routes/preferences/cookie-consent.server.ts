import { z } from "zod";
import { COOKIE_CONSENT_VALUES, setCookieConsent } from "#app/utils/cookies.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { preferenceAnswer } from "./preference-answer.server.ts";

const schema = z.object({ intent: z.literal("cookie-consent"), value: z.enum(COOKIE_CONSENT_VALUES) });

export const cookieConsentIntent = defineIntent<null, typeof schema>({
  schema,
  failureTitle: "Error",
  run: async ({ value }, { request, fields }) => preferenceAnswer(fields, await setCookieConsent(request, value)),
});
