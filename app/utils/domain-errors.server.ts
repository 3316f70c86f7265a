import type { Toast } from "./toast-message.ts";

// The domain's failures, as the services throw them. Services know nothing of HTTP: the route
// layer maps each of these to its answer in one place (`failureOf`, utils/form-reply.server.ts).

/** A refusal the person is told about (a message of the spec's catalogue); nothing was changed. */
export class Refusal extends Error {
  constructor(
    readonly toast: Toast,
    /** The HTTP status the answer carries: 400 unless the refusal is of the caller (401, 403) or a throttle (429). */
    readonly status: 400 | 401 | 403 | 429 = 400,
    /** The fields the refusal is about, with their messages; otherwise the form as a whole. */
    readonly fieldErrors?: Record<string, string[]>,
  ) {
    super(toast.description ?? toast.title);
  }
}

/** What was acted on is not there: it never was, or someone removed it since the page was shown. */
export class NotFound extends Error {}

/** The caller may not do this. The denial was logged when it was made (`forbidden`, utils/denial.server.ts). */
export class Forbidden extends Error {
  constructor(readonly body = "Forbidden") {
    super(body);
  }
}

/**
 * The submission was already saved under its key (a double click, a retry, a resubmitted page):
 * the caller answers as it did the first time, and whatever this request stored goes.
 */
export class AlreadySaved extends Error {
  constructor(readonly toast: Toast) {
    super("already saved");
  }
}
