import type { MiddlewareHandler } from "hono";
import { log } from "#app/utils/log.server.ts";
import type { WorkerEnv } from "../types.ts";
import { setResponseHeaders } from "./response-headers.ts";

export { log };

// One structured JSON line per request, tied to an id that is also returned to the caller.
export const requestLog: MiddlewareHandler<WorkerEnv> = async (c, next) => {
  const requestId = c.req.header("cf-ray") ?? crypto.randomUUID();
  c.set("requestId", requestId);
  const started = Date.now();
  try {
    await next();
  } finally {
    const status = c.res?.status ?? 500;
    log(status >= 500 ? "error" : "info", "request", {
      requestId,
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      status,
      durationMs: Date.now() - started,
    });
  }
  setResponseHeaders(c, { "X-Request-Id": requestId });
};
