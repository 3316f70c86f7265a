import { PNG_BYTES } from "../helpers.ts";
import type { World } from "./world.ts";

// The authorization matrix's vocabulary: who calls (CALLERS), what each may get (Outcome), and
// how a row of the table (rows.ts) states a route, the call it makes and each caller's outcome.

export const CALLERS = [
  "anon",
  "individual",
  "orgUser",
  "member",
  "admin",
  "otherAdmin",
  "recipient",
  "another",
  "archived",
] as const;
export type Caller = (typeof CALLERS)[number];

/**
 * What a caller gets:
 * - "ok": allowed; the status is one of the row's `ok` statuses and changes may happen;
 * - "noop": allowed to ask, but nothing is the caller's to change (a no-op or a refusal toast);
 * - "signin": redirected to /auth (signed out);
 * - "signout": an archived account is signed out and sent home;
 * - "dashboard": a signed-in caller sent away from the sign-in page;
 * - a number: refused with that status.
 * Everything but "ok" must leave D1 and R2 exactly as they were.
 */
export type Outcome = "ok" | "noop" | "signin" | "signout" | "dashboard" | 400 | 401 | 403 | 404;

export type Body = Record<string, string> | FormData | { json: unknown };
export type Call = {
  method: "GET" | "POST" | "OPTIONS";
  path: string;
  body?: Body;
  headers?: Record<string, string>;
  /** Headers that sign the body as sent (Stripe's signature), made when the call is sent. */
  sign?: (body: string) => Promise<Record<string, string>>;
};

export type Row = {
  /** A Remix route id ("routes/…") or a Hono route ("hono:METHOD path"). */
  route: string;
  kind: "loader" | "action";
  /** The action's intent (or a short label of what is asked). */
  intent?: string;
  call: (world: World, caller: Caller) => Call;
  /** Statuses an allowed call answers with. */
  ok: number[];
  cells: Record<Caller, Outcome>;
  /** Exempt from the cross-site check, and why. */
  crossSiteExempt?: string;
  /** A WebSocket answer must be accepted and closed before the test ends. */
  webSocket?: boolean;
};

/** Expands a shorthand: `rest` for every caller not named. */
export function cells(rest: Outcome, named: Partial<Record<Caller, Outcome>> = {}): Record<Caller, Outcome> {
  return Object.fromEntries(CALLERS.map((caller) => [caller, named[caller] ?? rest])) as Record<Caller, Outcome>;
}
export const PUBLIC = cells("ok");
/** Any signed-in, active account, on its own data. */
export const OWN = cells("ok", { anon: "signin", archived: "signout" });
/** Only the admin of organisation A. */
export const ADMIN_OF_A = cells(403, { anon: "signin", archived: "signout", admin: "ok" });
/** Only the recipient of the target achievement. */
export const RECIPIENT = cells(403, { anon: "signin", archived: "signout", recipient: "ok" });
/** The sign-in page and its forms are for signed-out visitors. */
export const ANONYMOUS = cells("dashboard", { anon: "ok" });

/** A loader row: a GET of the path (built from the world when it names seeded rows). */
export function loaderRow({
  path,
  ...row
}: Omit<Row, "kind" | "call"> & { path: string | ((world: World) => string) }): Row {
  return {
    ...row,
    kind: "loader",
    call: (world) => ({ method: "GET", path: typeof path === "string" ? path : path(world) }),
  };
}

/** A value of a row, or how to build it from the world when it names seeded rows (or must be fresh per cell). */
type FromWorld<T> = T | ((world: World) => T);
const fromWorld = <T>(value: FromWorld<T>, world: World) =>
  typeof value === "function" ? (value as (world: World) => T)(world) : value;

/** An action row: a POST of the body (and headers) to the path. */
export function actionRow({
  path,
  body,
  headers,
  sign,
  ...row
}: Omit<Row, "kind" | "call"> & {
  path: FromWorld<string>;
  body?: FromWorld<Body>;
  headers?: FromWorld<Record<string, string>>;
  sign?: Call["sign"];
}): Row {
  return {
    ...row,
    kind: "action",
    call: (world) => ({
      method: "POST",
      path: fromWorld(path, world),
      ...(body === undefined ? {} : { body: fromWorld(body, world) }),
      ...(headers === undefined ? {} : { headers: fromWorld(headers, world) }),
      ...(sign ? { sign } : {}),
    }),
  };
}

export const form = (fields: Record<string, string>) => fields;

/** A multipart body: the files (those in `fileFirst` first), then the fields. */
export function multipart(fields: Record<string, string>, files: Record<string, File>, fileFirst: string[] = []) {
  const body = new FormData();
  for (const name of fileFirst) body.append(name, files[name]!);
  for (const [name, file] of Object.entries(files)) if (!fileFirst.includes(name)) body.append(name, file);
  // The intent comes last, as the submit button sends it.
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return body;
}

export const png = () => new File([PNG_BYTES], "picture.png", { type: "image/png" });

/** The token with its signature changed. */
export function forge(token: string) {
  const last = token.at(-2) === "A" ? "B" : "A";
  return `${token.slice(0, -2)}${last}${token.at(-1)}`;
}

export function checkoutEvent() {
  return {
    id: `evt_${crypto.randomUUID()}`,
    object: "event",
    type: "checkout.session.completed",
    created: Math.floor(Date.now() / 1000),
    data: { object: { mode: "subscription" } },
  };
}

export const label = (row: Row) => `${row.route} ${row.kind}${row.intent ? ` (${row.intent})` : ""}`;
