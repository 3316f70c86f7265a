/**
 * A request the router aborts (the person follows a link while the page is still revalidating
 * after a form post) can reject with nobody listening: in that race Remix 2's single fetch leaves
 * the aborted fetch's promise unhandled (remix-run/react-router#14203; the fix, #14761, is not in
 * Remix 2), and the browser reports "signal is aborted without reason" as an uncaught error.
 * Nothing failed: the person went on. Only that rejection is kept quiet; any other still reports.
 */
export function ignoreAbortedRequests() {
  window.addEventListener("unhandledrejection", (event) => {
    if (event.reason instanceof DOMException && event.reason.name === "AbortError") event.preventDefault();
  });
}
