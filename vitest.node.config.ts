import { defineConfig } from "vitest/config";

// Tests of pure code and of the repository's own files (docs, configuration): plain Node, no
// runtime to start and no migration to apply, so each file costs milliseconds, not seconds.
export default defineConfig({
  test: {
    include: ["tests/node/**/*.test.ts"],
    environment: "node",
    retry: 0,
  },
});
