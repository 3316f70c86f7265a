// First: it configures zod before any route module defines a schema. (The browser loads zod only
// with a form's schema, whose shared field rules in utils/validation.ts import the same configuration.)
import "./utils/zod-config.ts";
import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToReadableStream, renderToString } from "react-dom/server";
import { pageHydrates } from "./utils/hydration.ts";
import { NonceProvider } from "./utils/nonce.tsx";

const ABORT_DELAY_MS = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");

  // A page without scripts has nothing to stream in after the shell: one string, encoded once,
  // costs a third less CPU than the stream's many small chunks (measured by `npm run bench`).
  // Nor does it take the loader data handed to the browser's router: left in, RemixServer
  // renders a suspended transfer of it, an empty `<!--$--><!--/$-->` after `</html>`.
  if (!pageHydrates(matchesOf(remixContext))) {
    const context = { ...remixContext, serverHandoffStream: undefined };
    const html = renderToString(<RemixServer context={context} url={request.url} />);
    return new Response(`<!DOCTYPE html>${html}`, { headers: responseHeaders, status: responseStatusCode });
  }

  const controller = new AbortController();
  const timeout = setTimeout(() => controller.abort(), ABORT_DELAY_MS);
  const nonce = loadContext.nonce;

  const body = await renderToReadableStream(
    <NonceProvider value={nonce}>
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} nonce={nonce} />
    </NonceProvider>,
    {
      nonce,
      signal: controller.signal,
      onError(error: unknown) {
        if (!controller.signal.aborted) {
          console.error(
            JSON.stringify({
              level: "error",
              message: "render error",
              requestId: loadContext.requestId,
              error: String(error),
            }),
          );
        }
        responseStatusCode = 500;
      },
    },
  );
  body.allReady.then(() => clearTimeout(timeout));

  // Crawlers and link previews get the whole document at once.
  if (isbot(request.headers.get("user-agent") || "")) await body.allReady;

  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}

/** The matched routes with their handles and loader data, as `useMatches` sees them. */
function matchesOf({ staticHandlerContext, routeModules }: EntryContext) {
  return staticHandlerContext.matches.map((match) => ({
    handle: routeModules[match.route.id]?.handle,
    data: staticHandlerContext.loaderData[match.route.id],
  }));
}
