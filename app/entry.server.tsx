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
/** What React writes where a Suspense boundary could not finish on the server. */
const CLIENT_RENDERED_BOUNDARY = "<!--$!-->";

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  const html = (body: string) =>
    new Response(`<!DOCTYPE html>${body}`, { headers: responseHeaders, status: responseStatusCode });

  // A page renders to one string, encoded once: React's stream encodes each of its thousands of
  // small chunks apart, a sixth of a signed-in page's CPU (docs/decisions/097). Nothing here
  // streams in after the shell, no loader returns a promise, so the stream had nothing to add.
  // A page without scripts does not take the loader data handed to the browser's router: left
  // in, RemixServer renders a suspended transfer of it, an empty `<!--$--><!--/$-->` after `</html>`.
  if (!pageHydrates(matchesOf(remixContext))) {
    const context = { ...remixContext, serverHandoffStream: undefined };
    return html(renderToString(<RemixServer context={context} url={request.url} />));
  }
  const nonce = loadContext.nonce;
  await settleHandoff(remixContext);
  const document = renderToString(
    <NonceProvider value={nonce}>
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} nonce={nonce} />
    </NonceProvider>,
  );
  // A boundary still waiting (a lazy component's first import in a fresh isolate) would reach
  // the browser as a fallback to render there; the stream waits for it instead.
  if (!document.includes(CLIENT_RENDERED_BOUNDARY)) return html(document);
  return streamed(request, responseStatusCode, responseHeaders, remixContext, loadContext);
}

/**
 * Reads the loader data handed to the browser's router (single fetch's stream) to its end and
 * leaves it where RemixServer's transfer looks first, so that the transfer renders at once
 * instead of suspending on each read.
 */
async function settleHandoff(context: EntryContext) {
  if (!context.serverHandoffStream) return;
  const value = await new Response(context.serverHandoffStream).text();
  const read = (result: { done: boolean; value: string }) => Object.assign(Promise.resolve(), { result });
  context.serverHandoffStream = new Blob([]).stream();
  context.renderMeta = {
    ...context.renderMeta,
    streamCache: { 0: read({ done: false, value }), 1: read({ done: true, value: "" }) },
  };
}

/** The streamed render, for a document with a boundary the one-string render could not finish. */
async function streamed(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
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
