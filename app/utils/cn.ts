import { clsx, type ClassValue } from "clsx";

// Where the Workers tests' setup file puts its check of decision 042's rule
// (tests/workers/class-conflicts.ts); nothing else sets it. On globalThis, not in this module: the
// tests and the Remix server bundle each have a copy of this one.
export const CLASS_LIST_CHECK = Symbol.for("career-passport.classListCheck");
const hooks = globalThis as { [CLASS_LIST_CHECK]?: (classes: string) => void };

/**
 * Joins class names. Nothing is merged: a primitive's own classes are component classes
 * (app/styles/app.css), which any utility a caller adds overrides by its cascade layer, and no
 * two utilities on one element may conflict (docs/decisions/042). The Workers tests check that
 * rule on every server render, with tailwind-merge, which neither bundle contains; the browser's
 * bundle leaves even the call out (`import.meta.env.SSR` is a build-time constant).
 */
export function cn(...inputs: ClassValue[]) {
  const classes = clsx(inputs);
  if (import.meta.env.SSR) hooks[CLASS_LIST_CHECK]?.(classes);
  return classes;
}
