/**
 * A count as en-GB writes it ("12,345"), without Intl: the first Intl formatter a page creates
 * loads the browser's locale data, a long task in the middle of hydration (decision 050), and a
 * pager's count is on most signed-in pages. tests/workers/format-count.test.ts holds it to Intl.
 */
export function formatCount(count: number) {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
