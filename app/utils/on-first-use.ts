/**
 * `create()` run once, on the first call of the returned function rather than at import. For
 * Intl formatters in modules every page loads: the first formatter a page creates loads the
 * browser's locale data, about 40 ms of a mid-range phone's main thread (160 ms at Lighthouse's
 * 4x CPU slowdown), and at import that lands in the long task that evaluates the page's scripts,
 * even on pages that never format a date before they are interactive (decision 040).
 */
export function onFirstUse<T>(create: () => T): () => T {
  let value: { made: T } | undefined;
  return () => (value ??= { made: create() }).made;
}
