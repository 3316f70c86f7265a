import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

// On globalThis, not in this module: the Worker's own modules and the Remix server bundle each
// have a copy of this one, and the load context (a Worker module) sets what the pages' renders read.
const CHECKING_CONFLICTS = Symbol.for("career-passport.checkClassConflicts");
const flags = globalThis as { [CHECKING_CONFLICTS]?: boolean };

/**
 * Whether server renders check that no two utilities on one element conflict: where the tests run
 * (ENVIRONMENT "test", the Workers tests and the Playwright server), set by the load context. Not in
 * production or local development: the check costs 2 to 3 ms of CPU on the admin dashboard.
 */
export function checkClassConflicts(on: boolean) {
  flags[CHECKING_CONFLICTS] = on;
}

/**
 * Joins class names. Nothing is merged: a primitive's own classes are component classes
 * (app/styles/app.css), which any utility a caller adds overrides by its cascade layer, and no
 * two utilities on one element may conflict (docs/decisions/042). Under test the server checks
 * that rule on every render with tailwind-merge and logs the offending list, which fails the
 * Workers tests; the browser's bundle leaves tailwind-merge out (`import.meta.env.SSR` is a
 * build-time constant).
 */
export function cn(...inputs: ClassValue[]) {
  const classes = clsx(inputs);
  if (import.meta.env.SSR && flags[CHECKING_CONFLICTS]) reportConflicts(classes);
  return classes;
}

function reportConflicts(classes: string) {
  const merged = twMerge(classes);
  if (merged !== classes) console.error(`Conflicting classes on one element: "${classes}" (merged: "${merged}")`);
}
