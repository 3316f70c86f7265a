// Hostile values for every text field that is stored and shown again, shared by the Workers-pool
// tests (tests/workers/hostile-inputs.test.ts) and Playwright (tests/e2e/hostile-inputs.spec.ts).
//
// Each value says what the shared field rules (app/utils/validation.ts, decision 011) do with it:
// "stored" values are kept and shown back exactly as typed (after trimming); the others are
// refused with the field's message.

export type HostileOutcome =
  /** Kept as typed (trimmed at both ends) and shown back as text, never as markup. */
  | "stored"
  /** Refused: over every field's limit (the field's "must be less than" message). */
  | "too-long"
  /** Refused: a control character (NUL and the rest of C0/C1, DEL). */
  | "control"
  /** Refused in single-line fields (a line break is a control character there); kept in multi-line ones. */
  | "line-break"
  /** Refused: bidirectional override, embedding or isolate characters. */
  | "bidi"
  /** Refused as blank: nothing visible (the field's "required" message; optional fields store nothing). */
  | "invisible";

export type HostileInput = { name: string; value: string; outcome: HostileOutcome };

export const HOSTILE_INPUTS: HostileInput[] = [
  { name: "script tag", value: '<script>alert("xss")</script>', outcome: "stored" },
  { name: "img onerror", value: "<img src=x onerror=alert(1)>", outcome: "stored" },
  { name: "svg onload", value: "<svg/onload=alert(document.domain)>", outcome: "stored" },
  { name: "attribute breakout", value: '"><img src=x onerror=alert(2)>', outcome: "stored" },
  { name: "single-quote event handler", value: "' autofocus onfocus='alert(3)", outcome: "stored" },
  { name: "javascript: URL", value: "javascript:alert(document.cookie)", outcome: "stored" },
  { name: "HTML entities", value: "&lt;b&gt;bold&lt;/b&gt; &amp; &quot;q&quot; &#39;s&#39; &#x3C;", outcome: "stored" },
  {
    name: "template injection",
    value: "{{constructor.constructor('alert(4)')()}} ${alert(5)} <%= 7*7 %>",
    outcome: "stored",
  },
  { name: "closing textarea and title", value: "</textarea></title><script>alert(6)</script>", outcome: "stored" },
  { name: "right-to-left text with marks", value: "مرحبا بالعالم \u200Fשלום\u200E", outcome: "stored" },
  { name: "right-to-left override", value: "Invoice \u202Egnp.exe", outcome: "bidi" },
  { name: "directional isolate", value: "Name \u2067evil\u2069", outcome: "bidi" },
  { name: "zero-width characters inside", value: "Ze\u200Bro\u200Cwi\u200Ddth\u2060Jo\uFEFFin", outcome: "stored" },
  { name: "only zero-width characters", value: "\u200B\u200C\u2060", outcome: "invisible" },
  { name: "only a Hangul filler", value: "\u3164", outcome: "invisible" },
  { name: "emoji with joiners, flags and skin tones", value: "👩🏽‍💻 Dev 🚀 🇬🇧 👨‍👩‍👧‍👦", outcome: "stored" },
  { name: "combining marks", value: "Z̷̢a̶͝l̸g̵o̴ café", outcome: "stored" },
  { name: "padded with spaces", value: "   padded value   ", outcome: "stored" },
  { name: "10,000 characters", value: "x".repeat(10_000), outcome: "too-long" },
  { name: "10,000 characters of markup", value: "<b>".repeat(3_334), outcome: "too-long" },
  { name: "NUL byte", value: "Ada\u0000Lovelace", outcome: "control" },
  { name: "bell and escape sequence", value: "Bell\u0007 \u001B[31mred", outcome: "control" },
  { name: "C1 control", value: "Next\u0085Line", outcome: "control" },
  { name: "line break", value: "First line\nSecond line", outcome: "line-break" },
  { name: "SQL injection", value: "Robert'); DROP TABLE users;--", outcome: "stored" },
  { name: "SQL tautology", value: "' OR '1'='1' --", outcome: "stored" },
  { name: "LIKE wildcards and backslash", value: "100%_off \\ %", outcome: "stored" },
];

/** The outcome for a field: single-line fields refuse line breaks, multi-line ones keep them. */
export function outcomeFor(input: HostileInput, { multiline }: { multiline: boolean }) {
  if (input.outcome === "line-break") return multiline ? "stored" : "control";
  return input.outcome;
}

/** How React writes text into HTML (text nodes and attribute values alike). */
export function escapeLikeReact(value: string) {
  return value.replace(
    /[&<>"']/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" })[char]!,
  );
}

/** The values a browser test types into the real forms: one of each kind that is stored. */
export const E2E_HOSTILE_VALUES = [
  '<script>alert("xss")</script>',
  '"><img src=x onerror=alert(2)>',
  "' autofocus onfocus='alert(3)",
  "&lt;b&gt; &amp; &#39;",
  "javascript:alert(document.cookie)",
  "مرحبا \u200Fשלום",
  "Ze\u200Bro\u200Dwidth",
  "👩🏽‍💻 🚀 🇬🇧",
  "Robert'); DROP TABLE users;--",
];
