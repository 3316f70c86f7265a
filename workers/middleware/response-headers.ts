import type { Context } from "hono";

/**
 * Sets headers on the current response in place. Responses straight from fetch() or the cache
 * have immutable headers: only those are copied, once, because every copy (and every `c.res`
 * assignment, which Hono turns into another copy) costs time on each request.
 */
export function setResponseHeaders(c: Context, headers: Record<string, string>) {
  const set = (response: Response) => {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  };
  try {
    set(c.res);
  } catch {
    const copy = new Response(c.res.body, c.res);
    set(copy);
    c.res = copy;
  }
}
