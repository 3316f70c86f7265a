import type { MiddlewareHandler } from "hono";
import { log, withRequestId } from "#app/utils/log.server.ts";
import type { WorkerEnv } from "../types.ts";
import { setResponseHeaders } from "./response-headers.ts";

export { log };

/**
 * Gives every request an id (Cloudflare's ray id when there is one), returned in X-Request-Id
 * and carried by every log line written for the request, and logs the requests that failed.
 * Successful requests get no line of ours: the platform's invocation logs already record each
 * request (method, URL, status, duration, ray id), and a second line per request would double
 * the log volume and cost a passport visit measurable time (docs/decisions/013).
 */
export const requestLog: MiddlewareHandler<WorkerEnv> = async (c, next) => {
  const requestId = c.req.header("cf-ray") ?? crypto.randomUUID();
  c.set("requestId", requestId);
  const started = Date.now();
  try {
    // Every line logged while serving it names the request (log.server.ts).
    await withRequestId(requestId, next);
  } finally {
    const status = c.res?.status ?? 500;
    if (status >= 500) {
      log("error", "request failed", {
        requestId,
        method: c.req.method,
        path: new URL(c.req.url).pathname,
        status,
        durationMs: Date.now() - started,
      });
    }
  }
  setResponseHeaders(c, { "X-Request-Id": requestId });
};
