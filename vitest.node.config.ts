import { defineConfig } from "vitest/config";

// Tests of pure code and of the repository's own files (docs, configuration): plain Node, no
// runtime to start and no migration to apply, so each file costs milliseconds, not seconds.
export default defineConfig({
  test: {
    include: ["tests/node/**/*.test.ts"],
    environment: "node",
    // A test that fails once is a defect to find, not noise (issue 42): no retries.
    retry: 0,
    // The property tests draw hundreds of inputs each; on a busy 2-CPU machine one took 12 s.
    testTimeout: 30_000,
  },
});
