import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

/**
 * Joins class names. Nothing is merged: a primitive's own classes are component classes
 * (app/styles/app.css), which any utility a caller adds overrides by its cascade layer, and no
 * two utilities on one element may conflict (docs/decisions/042). The server checks that rule
 * on every render with tailwind-merge and logs the offending list, which fails the Workers
 * tests; the browser's bundle leaves tailwind-merge out (`import.meta.env.SSR` is a build-time
 * constant).
 */
export function cn(...inputs: ClassValue[]) {
  const classes = clsx(inputs);
  if (import.meta.env.SSR) reportConflicts(classes);
  return classes;
}

function reportConflicts(classes: string) {
  const merged = twMerge(classes);
  if (merged !== classes) console.error(`Conflicting classes on one element: "${classes}" (merged: "${merged}")`);
}
