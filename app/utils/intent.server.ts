import { parseWithZod } from "@conform-to/zod/v4";
import type { AppLoadContext, data } from "@remix-run/cloudflare";
import type { z } from "zod";
import { redirectWithToast } from "./cookies.server.ts";
import { AlreadySaved } from "./domain-errors.server.ts";
import { asResponse, failureOf, replyFailure } from "./form-reply.server.ts";
import type { Toast } from "./toast-message.ts";
import { validationToast } from "./validation-toast.ts";
import type { UploadForm } from "./uploads.server.ts";

// The one way a page's forms are answered (docs/decisions/053). Each form intent is a module of
// its route folder exporting an `Intent`: its schema, the spec's failure title and what it does.
// `runIntent` runs every one the same way: find it by the form's `intent`, parse, answer a
// refused submission with the typed input, run, answer a failure, redirect with the toast.

/**
 * What a successful intent answers: a toast on the page it goes back to (or on `redirectTo`), or
 * an answer of its own (a redirect elsewhere, a fetcher's data).
 */
export type Outcome = { toast: Toast; redirectTo?: string; headers?: HeadersInit } | Response | ReturnType<typeof data>;

/** What an intent's `run` is given besides its parsed value. */
export type IntentArgs<Viewer> = {
  request: Request;
  context: AppLoadContext;
  viewer: Viewer;
  /** The form's fields as posted (for a field the schema does not keep, such as `redirectTo`). */
  fields: FormData;
  /** The files the request brought, for an intent that `takesFiles`. */
  upload: UploadForm | null;
};

export type Intent<Viewer, Schema extends z.ZodType = z.ZodType> = {
  schema: Schema;
  /** The spec's title when the intent fails (section 8's catalogue): 'Error updating profile'. */
  failureTitle: string;
  /** The id of the form the reply belongs to: the intent's name unless given (or read from the fields). */
  formId?: string | ((fields: FormData) => string);
  /** Fields never sent back to the page (passwords). */
  hideFields?: string[];
  /** Who may ask at all, checked before the form is read (a refusal throws, as `forbidden` does). */
  guard?(args: IntentArgs<Viewer>): void | Promise<void>;
  /** Uses the uploaded files; every other intent's files are deleted before it runs. */
  takesFiles?: boolean;
  run(value: z.output<Schema>, args: IntentArgs<Viewer>): Promise<Outcome>;
};

/** An intent, typed by its schema (what `run` receives). */
export const defineIntent = <Viewer, Schema extends z.ZodType>(intent: Intent<Viewer, Schema>) => intent;

/**
 * Runs the intent the form names. `back` is where a success goes with its toast. A failure is
 * answered on the same page with the typed input (`replyFailure`), or, for a route that answers
 * forms of other pages (`failuresGoBack`), as a flash toast on `back`.
 */
export async function runIntent<Viewer>(
  { request, context }: { request: Request; context: AppLoadContext },
  // Each intent's schema differs; `defineIntent` has checked each against its own `run`.
  intents: Record<string, Intent<Viewer, z.ZodType<any>>>, // eslint-disable-line @typescript-eslint/no-explicit-any
  {
    viewer,
    fields,
    upload = null,
    back,
    failuresGoBack = false,
  }: { viewer: Viewer; fields: FormData; upload?: UploadForm | null; back: string; failuresGoBack?: boolean },
) {
  const name = String(fields.get("intent") ?? "");
  const intent = Object.hasOwn(intents, name) ? intents[name]! : null;
  const formId = typeof intent?.formId === "function" ? intent.formId(fields) : (intent?.formId ?? name);
  const submission = intent ? parseWithZod(fields, { schema: intent.schema }) : undefined;
  const hideFields = intent?.hideFields;
  const toastBack = (toast: Toast) => redirectWithToast(context.env, request, back, toast);
  const fail = (toast: Toast, status: number, errors: { fieldErrors?: Record<string, string[]> }) =>
    failuresGoBack
      ? toastBack({ ...toast, variant: "destructive" })
      : replyFailure({
          formId,
          submission,
          hideFields,
          toast,
          status,
          ...(errors.fieldErrors ? errors : { formErrors: [toast.description ?? toast.title] }),
        });

  // A refused file stops the reading, so the intent (sent after the files) may be unknown.
  if (upload?.error) {
    await upload.discard();
    const { title, description, field = "media", unexpected, status } = upload.error;
    // A storage failure is not the file's fault: the form's own title, and no field blamed.
    if (unexpected)
      return fail({ title: failuresGoBack ? title : (intent?.failureTitle ?? title), description }, 500, {});
    return fail({ title, description }, status, { fieldErrors: { [field]: [description] } });
  }
  if (!intent || !submission) {
    await upload?.discard();
    throw new Response("Unknown action", { status: 400 });
  }
  if (!intent.takesFiles) await upload?.discard();
  const args = { request, context, viewer, fields, upload };
  if (intent.guard) {
    try {
      await intent.guard(args);
    } catch (error) {
      await upload?.discard();
      throw asResponse(error);
    }
  }
  if (submission.status !== "success") {
    await upload?.discard();
    if (failuresGoBack) return fail(validationToast(submission.error), 400, {});
    return replyFailure({ formId, submission, hideFields });
  }
  try {
    const outcome = await intent.run(submission.value, args);
    if (!("toast" in outcome)) return outcome;
    return redirectWithToast(context.env, request, outcome.redirectTo ?? back, outcome.toast, {
      headers: outcome.headers,
    });
  } catch (error) {
    // A resubmission: answered as the first time (its files stay with the first one's row).
    if (error instanceof AlreadySaved) return toastBack(error.toast);
    await upload?.discard().catch(() => {});
    const failure = failureOf(error, intent.failureTitle, context.requestId);
    return fail(failure.toast, failure.status, failure);
  }
}
