// Types of test-worker.mjs for vitest.config.ts.
export const TEST_WORKER_DIR: string;
export const TEST_WORKER_MAIN: string;
export function bundleTestWorker(): void;
