import { data } from "@remix-run/cloudflare";
import type { Toast } from "./toast-message.ts";
import type { FormReply } from "./form-reply.ts";
import { errorSummary, log } from "./log.server.ts";
import { validationToast } from "./validation-toast.ts";
import type { Db } from "#db/client.ts";
import { runPart, runParts, type BatchPart } from "#db/queries/batch-parts.ts";
import { Forbidden, NotFound, Refusal } from "./domain-errors.server.ts";

// errorSummary lives with the logger, where services and Workers find it; the route modules that
// still import it from here are moved to log.server.ts with the route refactors of issue 42.
export { errorSummary };

// The one way a failed form submission is answered (docs/decisions/017): the same page again,
// with a destructive toast (rendered in the page's status region with or without JavaScript),
// the form's errors and what the person typed, under the id of the form it belongs to.

/** What Conform's parsed submission offers: its errors, and a reply that keeps the typed input. */
type Submission = {
  reply(options?: {
    formErrors?: string[];
    fieldErrors?: Record<string, string[]>;
    hideFields?: string[];
  }): NonNullable<FormReply["result"]>;
  error?: Record<string, string[] | null> | null;
};

/**
 * Answers a failed submission: the toast (the validation toast when none is given), the form's
 * and fields' errors and the typed input (less `hideFields`), for the form `formId`.
 */
export function replyFailure({
  formId,
  submission,
  toast,
  status = 400,
  formErrors,
  fieldErrors,
  hideFields,
  headers,
}: {
  formId: string;
  submission?: Submission;
  toast?: Toast;
  status?: number;
  formErrors?: string[];
  fieldErrors?: Record<string, string[]>;
  hideFields?: string[];
  headers?: HeadersInit;
}) {
  const reply: FormReply = {
    formId,
    result: submission?.reply({ formErrors, fieldErrors, hideFields }),
    toast: { ...(toast ?? validationToast(submission?.error)), variant: "destructive" },
  };
  return data(reply, { status, headers });
}

/** A refusal of the whole form: its toast, and its description as the form's error. */
export function replyRefusal(
  { formId, submission, hideFields }: { formId: string; submission?: Submission; hideFields?: string[] },
  toast: { title: string; description: string },
  status: number,
) {
  return replyFailure({ formId, submission, toast, status, formErrors: [toast.description], hideFields });
}

export const UNEXPECTED_FAILURE = "Something went wrong on our side and nothing was saved. Please try again.";

/**
 * What a failed action tells the person, and with which status: a service's refusal as it
 * worded it, a target row gone (deleted by someone else since the page was shown) as `GONE`, and
 * anything nobody planned for (the database failed) logged, as the spec's `title` with
 * `UNEXPECTED_FAILURE`. Refusals of the caller (a 403, a redirect to sign in) are thrown as
 * their HTTP answer.
 */
export function failureOf(error: unknown, title: string, requestId?: string) {
  if (error instanceof Refusal) return { toast: error.toast, status: error.status, fieldErrors: error.fieldErrors };
  if (error instanceof NotFound) return { toast: { title, description: GONE }, status: 404 };
  // A 404 Response is a guard's "not there" (the row went away): answered as a NotFound.
  if (error instanceof Response && error.status === 404) return { toast: { title, description: GONE }, status: 404 };
  const response = asResponse(error);
  if (response instanceof Response) throw response;
  log("error", "action failed", { title, requestId, error: errorSummary(error) });
  return { toast: { title, description: UNEXPECTED_FAILURE }, status: 500 };
}

/**
 * The HTTP answer to a domain error that refuses the caller rather than their input: a 403 for
 * `Forbidden` (logged when it was made), a 404 for `NotFound`. Anything else is returned as it is,
 * for its caller to throw.
 */
export function asResponse(error: unknown) {
  if (error instanceof Forbidden) return new Response(error.body, { status: 403 });
  if (error instanceof NotFound) return new Response(error.message || "Not Found", { status: 404 });
  return error;
}

/** A service's work outside a form (a loader, a download): its refusals of the caller become their HTTP answers. */
export function withHttpErrors<T>(work: Promise<T>) {
  return work.catch((error: unknown) => {
    throw asResponse(error);
  });
}

export const GONE = "It is no longer there: someone may have changed it in the meantime. Please reload the page.";

/** One `Headers` holding every `Set-Cookie` (and other header) of the given sources, none lost. */
export function mergeHeaders(...sources: (HeadersInit | null | undefined)[]) {
  const merged = new Headers();
  for (const source of sources) {
    if (!source) continue;
    const headers = new Headers(source);
    for (const cookie of headers.getSetCookie()) merged.append("Set-Cookie", cookie);
    headers.forEach((value, name) => {
      if (name.toLowerCase() !== "set-cookie") merged.set(name, value);
    });
  }
  return merged;
}

/**
 * One part of a page's data. When it fails, the rest of the page still renders: the part gets
 * `fallback` and the page the spec's toast for it (`title`, e.g. 'Error loading members'), which
 * the loader returns as its `toast` (the Toaster shows it, also without JavaScript).
 */
export async function loadPart<T>(
  context: { requestId?: string },
  title: string,
  load: () => Promise<T>,
  fallback: T,
): Promise<[T, Toast | null]> {
  try {
    return [await load(), null];
  } catch (error) {
    if (error instanceof Response) throw error;
    log("error", "loader part failed", { title, requestId: context.requestId, error: errorSummary(error) });
    return [fallback, { title, description: LOAD_FAILURE, variant: "destructive" }];
  }
}

/** A part of a page's data as `loadParts` takes it: its statements, its toast title and its fallback. */
export type PagePart<T> = { title: string; part: BatchPart<T>; fallback: T };

/** A `PagePart` (typed by its part). */
export const pagePart = <T>(title: string, part: BatchPart<T>, fallback: T): PagePart<T> => ({ title, part, fallback });

/**
 * Every part of a page's data in one D1 batch (one round trip). A batch fails as a whole, so
 * when it does each part is loaded on its own, as `loadPart` would: the failing one gets its
 * fallback and the page its toast (the first failing part's), and the rest still render. Only a
 * failure costs the extra round trips.
 */
export async function loadParts<const P extends readonly PagePart<unknown>[]>(
  context: { requestId?: string; db: Db },
  parts: P,
): Promise<[{ [K in keyof P]: P[K] extends PagePart<infer T> ? T : never }, Toast | null]> {
  type Values = { [K in keyof P]: P[K] extends PagePart<infer T> ? T : never };
  try {
    return [
      (await runParts(
        context.db,
        parts.map((part) => part.part),
      )) as Values,
      null,
    ];
  } catch (error) {
    if (error instanceof Response) throw error;
  }
  const loaded = await Promise.all(
    parts.map((part) => loadPart(context, part.title, () => runPart(context.db, part.part), part.fallback)),
  );
  return [loaded.map(([value]) => value) as Values, loaded.find(([, toast]) => toast)?.[1] ?? null];
}

export const LOAD_FAILURE = "Part of this page could not be loaded. Please reload the page to try again.";
