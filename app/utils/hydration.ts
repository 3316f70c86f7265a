/**
 * What a route may say about its page. `hydrate` returning false serves the page without any
 * client JavaScript (the public passport and the landing page for visitors: links, forms and the
 * Popover API do all they need, and phones on slow networks get them sooner).
 */
export type RouteHandle = { hydrate?: (data: unknown) => boolean };

/** Whether a page ships scripts: only when every matched route agrees (the default is yes). */
export function pageHydrates(matches: { handle?: unknown; data?: unknown }[]) {
  return matches.every((match) => (match.handle as RouteHandle | undefined)?.hydrate?.(match.data) ?? true);
}
