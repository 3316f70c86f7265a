import { twMerge } from "tailwind-merge";
import { CLASS_LIST_CHECK } from "#app/utils/cn.ts";

// The slot on globalThis every copy of app/utils/cn.ts reads (the test files' and the Remix
// server bundle's).
const hooks = globalThis as { [CLASS_LIST_CHECK]?: (classes: string) => void };

/**
 * Decision 042's rule, that no two utilities on one element conflict: each class list `cn` joins
 * is compared with tailwind-merge's result, and a list it would change is logged with an error,
 * which fails the test (console-errors.ts). The production Worker carries neither the check nor
 * tailwind-merge: it costs the admin dashboard 2 to 3 ms of CPU (decision 047).
 */
export function reportClassConflicts(classes: string) {
  const merged = twMerge(classes);
  if (merged !== classes) console.error(`Conflicting classes on one element: "${classes}" (merged: "${merged}")`);
}

/** Puts `check` (the conflict check by default; null turns checking off) where `cn` reads it. */
export function checkClassLists(check: ((classes: string) => void) | null = reportClassConflicts) {
  hooks[CLASS_LIST_CHECK] = check ?? undefined;
}
