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

/**
 * Why a wallet's exchange (decisions 064, 066) is refused, as VC-API exchanges tell it: no such
 * exchange, over the rate limit, spent (used, expired, revoked, its achievement answered), a
 * presentation that does not authenticate, or accepted without the credential being issued.
 */
export type ExchangeProblem = "unknown" | "throttled" | "gone" | "unauthenticated" | "unissued";

/** A wallet's exchange refused; its route answers each problem with a status (workers/routes/wallet-exchange.ts). */
export class ExchangeRefusal extends Error {
  constructor(
    readonly problem: ExchangeProblem,
    message: string,
  ) {
    super(message);
  }
}

/** The OAuth error codes the OpenID4VCI endpoints answer (decision 065); `not_found` and `expired` are the offer's. */
export type OAuthErrorCode =
  | "slow_down"
  | "not_found"
  | "expired"
  | "invalid_request"
  | "unsupported_grant_type"
  | "invalid_grant"
  | "invalid_token"
  | "invalid_credential_request"
  | "unknown_credential_configuration"
  | "invalid_proof"
  | "invalid_nonce";

/**
 * An OpenID4VCI request refused, as OAuth tells it: the error code and its description. The
 * route answers `{error, error_description}` with the code's status (workers/routes/openid4vci.ts).
 */
export class OAuthRefusal extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description);
  }
}
