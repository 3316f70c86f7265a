import type { SubmissionResult } from "@conform-to/react";
import { useActionData, useMatches } from "@remix-run/react";
import { useContext } from "react";
import { UNSAFE_DataRouterStateContext } from "react-router-dom";
import type { Toast } from "./toast-message.ts";

/**
 * What every failed submission answers (built by `replyFailure` in form-reply.server.ts): the id
 * of the form it belongs to, Conform's result (errors and the typed input) and the toast.
 */
export type FormReply = { formId: string; result?: SubmissionResult<string[]>; toast: Toast };

/** The failed submission of the form `formId` on this route, if that is what was just posted. */
export function useFormReply(formId: string): FormReply | undefined {
  const reply = useActionData<FormReply>();
  return reply?.formId === formId ? reply : undefined;
}

/** A route's data that carries a toast: a failed action, or a loader that could render only part of its page. */
const toastOf = (value: unknown) =>
  value && typeof value === "object" && "toast" in value && isToast(value.toast) ? value.toast : null;
const isToast = (value: unknown): value is Toast =>
  value !== null && typeof value === "object" && "title" in value && typeof value.title === "string";

/**
 * The toast the page was rendered with: a failed action's (whichever route answered it), else a
 * loader's (the deepest route first, the root's flash toast last). The toaster shows it, as a
 * plain status message without JavaScript. Remix gives each route only its own action data, so
 * this reads the router state every route shares (docs/decisions/017).
 */
export function usePageToast(): Toast | null {
  const state = useContext(UNSAFE_DataRouterStateContext);
  const matches = useMatches();
  for (const actionData of Object.values(state?.actionData ?? {})) {
    const toast = toastOf(actionData);
    if (toast) return toast;
  }
  for (const match of [...matches].reverse()) {
    const toast = toastOf(match.data);
    if (toast) return toast;
  }
  return null;
}
