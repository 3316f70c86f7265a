import { createAccount, mailConfirmationLink } from "#app/services/accounts/email-and-password.server.ts";
import { recordNewAccount, replaceUnconfirmedAccount } from "#app/services/sign-up.server.ts";
import { redirectWithToast, safeRedirectPath, signUpCookieHeader } from "#app/utils/cookies.server.ts";
import { Refusal } from "#app/utils/domain-errors.server.ts";
import { orgSignUpSchema, signUpSchema } from "#app/utils/form-schemas.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { guessablePasswordRefusal } from "#app/utils/password-rules.server.ts";
import { findAccountByEmail } from "#db/queries/accounts.ts";
import type { z } from "zod";
import { limitAttempts, limitMailsTo, refundMailTo } from "./form.server.ts";
import { checkEmailHref } from "./screens.ts";

type SignUpForm = z.output<typeof signUpSchema> | z.output<typeof orgSignUpSchema>;

/** Create an account (intents `signup` and `org-signup`, each with its schema), then "Check your email". */
function signUpIntent(schema: z.ZodType<SignUpForm>) {
  return defineIntent<null, z.ZodType<SignUpForm>>({
    schema,
    failureTitle: "Error",
    hideFields: ["password"],
    async run(value, { request, context }) {
      // Told like the form's other rules, before anything is counted or written.
      const guessable = guessablePasswordRefusal(value.password, value, "password");
      if (guessable) throw guessable;
      await limitAttempts(request, context, "sign-up");
      await limitMailsTo(request, context, value.email);
      const isOrganisation = value.intent === "org-signup";
      const userType = isOrganisation ? "organization" : "individual";
      // Only this browser is signed in by the confirmation link. (A taken address gets a made-up
      // user id here, which matches nothing: the answer looks the same.)
      const answer = async (userId?: string) => {
        const headers = new Headers();
        if (userId) headers.append("Set-Cookie", await signUpCookieHeader(context.env, request, userId));
        return redirectWithToast(
          context.env,
          request,
          checkEmailHref(value.email),
          { title: "Check your email", description: `We sent a confirmation link to ${value.email}.` },
          { headers },
        );
      };
      // Answered the same for a new and a taken address, and as fast: the mail goes after the
      // answer. A failed e-mail never loses the account.
      const mailConfirmation = () =>
        mailConfirmationLink(context, {
          email: value.email,
          // Kept in the confirmation link, so an invite survives the round trip through the mailbox.
          callbackURL: safeRedirectPath(value.redirectTo, "/"),
          headers: request.headers,
          logFailure: true,
        });

      let userId: string;
      try {
        // The same sign-up sent again (its first answer lost): its account stands, and is mailed again.
        const earlier = await replaceUnconfirmedAccount(context, { ...value, userType });
        if (earlier) {
          mailConfirmation();
          return await answer(earlier);
        }
        const { ok, body } = await createAccount(context, {
          email: value.email,
          password: value.password,
          name: value.name,
          headers: request.headers,
        });
        if (!ok || !body.user) {
          // Two sign-ups for one address at once (a double click, a retry): the other one created the
          // account and sends its mail. Answer as for any taken address, the same as for a new one.
          if (await findAccountByEmail(context.db, value.email)) return await answer();
          const message = body.message ?? "An error occurred";
          throw new Refusal({ title: "Error", description: message, variant: "destructive" });
        }
        userId = body.user.id;
        await recordNewAccount(context, {
          userId,
          fullName: value.name,
          userType,
          organization:
            "organizationName" in value
              ? { name: value.organizationName, description: value.organizationDescription }
              : undefined,
        });
      } catch (error) {
        // Nothing was mailed: the address's mail limit is not spent on a sign-up that failed.
        await refundMailTo(context, value.email);
        throw error;
      }
      mailConfirmation();
      return answer(userId);
    },
  });
}

export const signUpPersonIntent = signUpIntent(signUpSchema);
export const signUpOrganisationIntent = signUpIntent(orgSignUpSchema);
