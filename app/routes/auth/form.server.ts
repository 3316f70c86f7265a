import { parseWithZod } from "@conform-to/zod/v4";
import type { AppLoadContext } from "@remix-run/cloudflare";
import type { z } from "zod";
import type { Toast } from "#app/utils/toast-message.ts";
import { replyFailure } from "#app/utils/form-reply.server.ts";
import { pathOf, securityEvent } from "#app/utils/log.server.ts";
import { consumeRateLimit, RATE_LIMIT_MESSAGE, type RateLimitedAction } from "#app/utils/rate-limit.server.ts";

/** A parsed submission, able to answer with its errors and the user's input (less passwords). */
export type Replyable = Parameters<typeof replyFailure>[0]["submission"] & {};

/** A refused sign-in or sign-up: the message in the toast and above the form, the password gone. */
export function refuseForm(formId: string, submission: Replyable, toast: Toast, status: number, formError?: string) {
  return replyFailure({
    formId,
    submission,
    toast,
    status,
    formErrors: formError ? [formError] : undefined,
    hideFields: ["password"],
  });
}

/**
 * What every form of /auth does first: validates against its schema (errors go back beside the
 * fields) and counts the attempt against its rate limit (the 11th in a minute is refused, 429).
 */
export async function readAuthForm<Schema extends z.ZodType<{ intent: string }>>(
  request: Request,
  context: AppLoadContext,
  formData: FormData,
  { schema, limit }: { schema: Schema; limit: RateLimitedAction },
) {
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") {
    return {
      reply: replyFailure({ formId: String(formData.get("intent")), submission, hideFields: ["password"] }),
    } as const;
  }
  if (!(await consumeRateLimit(context.db, request, limit))) {
    securityEvent("auth.failed", {
      reason: "rate limited",
      action: limit,
      route: pathOf(request),
      requestId: context.requestId,
    });
    const toast = { title: "Too many attempts", description: RATE_LIMIT_MESSAGE, variant: "destructive" } as const;
    return { reply: refuseForm(submission.value.intent, submission, toast, 429, RATE_LIMIT_MESSAGE) } as const;
  }
  return { submission, value: submission.value as z.output<Schema> } as const;
}
