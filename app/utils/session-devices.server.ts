// How Settings names a session: the device from its user agent, the place from the edge's
// reading of the request. On the server, so no user-agent library reaches the browser; a few
// patterns are enough to tell a person their own devices apart.

/** Browsers, most specific first: Edge and Opera also say "Chrome", Chrome also says "Safari". */
const BROWSERS: [RegExp, string][] = [
  [/\bEdgA?\//, "Edge"],
  [/\bOPR\/|\bOpera\b/, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  // "HeadlessChrome/" too.
  [/Chrome\/|\bCriOS\//, "Chrome"],
  [/\bSafari\//, "Safari"],
];

/** Systems, most specific first: Android also says "Linux", an iPhone also says "Mac OS X". */
const SYSTEMS: [RegExp, string][] = [
  [/\bAndroid\b/, "Android"],
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMacintosh\b|\bMac OS X\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

const first = (patterns: [RegExp, string][], text: string) =>
  patterns.find(([pattern]) => pattern.test(text))?.[1] ?? null;

/** "Firefox on Windows", "Safari on iPhone"; "Unknown device" when the agent says nothing we know. */
export function deviceLabel(userAgent: string | null | undefined) {
  const agent = (userAgent ?? "").slice(0, 512);
  const browser = first(BROWSERS, agent);
  const system = first(SYSTEMS, agent);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? "Unknown device";
}

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(["en-GB"], { type: "region" });
  } catch {
    return null;
  }
})();

/** The country's name from Cloudflare's two-letter code (T1 is Tor, XX unknown: no place). */
function countryName(code: string) {
  if (!/^[A-Z]{2}$/.test(code) || code === "XX" || code === "T1") return null;
  try {
    return regionNames?.of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * Where a request came from, as far as Cloudflare's edge says (`request.cf`): "Amsterdam,
 * Netherlands", "Netherlands", or null when it says nothing (local development, some networks).
 */
export function placeOf(cf: object | null | undefined) {
  const { city, country } = (cf ?? {}) as { city?: unknown; country?: unknown };
  const town = typeof city === "string" ? city.trim().slice(0, 80) : "";
  const nation = typeof country === "string" ? countryName(country) : null;
  return [town, nation].filter(Boolean).join(", ") || null;
}
