import { afterEach, beforeEach } from "vitest";

/**
 * Every test fails on a `console.error` it did not declare: the Worker logs an error only when
 * something went wrong that a person or an operator would have to look at, so an error in a test
 * that did not set out to cause one is a bug (in the app or in the test's setup).
 *
 * The state lives on globalThis so that the hooks registered by setup.ts and the declarations
 * a test file imports share it, whichever module instance each one got.
 */
type ConsoleErrorState = { expected: RegExp[]; unexpected: string[] };
const state = ((globalThis as { __consoleErrors?: ConsoleErrorState }).__consoleErrors ??= {
  expected: [],
  unexpected: [],
});

/**
 * Declares that the running test causes a `console.error` matching `pattern` on purpose (a
 * mail provider that is down, a storage failure forced by the test). Only matching lines are
 * allowed; any other error still fails the test.
 */
export function expectConsoleError(pattern: RegExp) {
  state.expected.push(pattern);
}

const describeArgument = (value: unknown) => {
  if (typeof value === "string") return value;
  if (value instanceof Error) return value.stack ?? `${value.name}: ${value.message}`;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
};

/** Registers the hooks; called once, from the pool's setup file. */
export function failOnUnexpectedConsoleErrors() {
  const original = console.error;
  beforeEach(() => {
    state.expected = [];
    state.unexpected = [];
    console.error = (...args: unknown[]) => {
      const line = args.map(describeArgument).join(" ");
      if (!state.expected.some((pattern) => pattern.test(line))) state.unexpected.push(line);
      original.apply(console, args);
    };
  });
  afterEach(() => {
    console.error = original;
    const unexpected = state.unexpected;
    state.expected = [];
    state.unexpected = [];
    if (unexpected.length)
      throw new Error(
        `console.error the test did not declare with expectConsoleError(/pattern/):\n${unexpected.join("\n")}`,
      );
  });
}
