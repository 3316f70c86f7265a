import http from "node:http";
import { fileURLToPath } from "node:url";
import { defineWorkersConfig, readD1Migrations } from "@cloudflare/vitest-pool-workers/config";
import { commonPasswordList } from "./scripts/build/common-passwords.ts";
import { bundleTestWorker, TEST_WORKER_MAIN } from "./scripts/build/test-worker.mjs";

// The pool's runtimes call back into this process (Miniflare's loopback server) for modules and
// to push and pop isolated storage around every test. Node closes a kept-alive connection after 5
// idle seconds; when its event loop lags under load, that close lands just as workerd sends the
// next call on the connection, and the call fails with "Network connection lost": a test of 5 to
// 10 seconds failed that way on both its tries and failed CI (decision 045). Servers in this
// process serve local runtimes and test fakes only, so none of them needs Node's timeouts.
const createServer = http.createServer;
http.createServer = ((...args: Parameters<typeof http.createServer>) => {
  const server = createServer(...args);
  server.keepAliveTimeout = 0;
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  return server;
}) as typeof http.createServer;

// `npx vitest` alone bundles the test entry here; scripts/test-workers.mjs bundles it once for its
// lanes and says so.
if (!process.env.TEST_WORKER_BUNDLED) bundleTestWorker();

// Unit and integration tests run inside workerd with real (local) D1, R2 and Durable Objects.
export default defineWorkersConfig(async () => ({
  // The server's common-password list (vite.config.ts builds it the same way).
  plugins: [commonPasswordList()],
  // tsyringe (under the passkey plugin's WebAuthn verifier) ships tslib 1, whose ES entry imports
  // its CommonJS build as a default export that a pre-bundle does not give it; tslib 2's ES build
  // serves it as well (vite.config.ts does the same for the Worker's bundle).
  resolve: {
    alias: [
      { find: /^tslib$/, replacement: fileURLToPath(import.meta.resolve("tslib/tslib.es6.mjs")) },
      // The test entry as scripts/test-workers.mjs bundled it (decision 094): the one instance the
      // pool's runtime serves requests with, loaded once per run, however a test file names it.
      {
        find: /^(#|(\.\.\/)+)workers\/test-app\.ts$/,
        replacement: fileURLToPath(new URL(TEST_WORKER_MAIN, import.meta.url)),
      },
    ],
  },
  test: {
    // Every file of a run in one runtime, one after another (`singleWorker`), so the app's modules
    // are loaded and transformed once per run instead of once per file (decision 083). The
    // authorization matrix's files too: they once needed runtimes of their own, when ~900
    // requests through the pool's SELF left a runtime ever slower (decisions 045, 085, 086).
    include: ["tests/workers/**/*.test.ts"],
    setupFiles: ["./tests/workers/setup.ts"],
    // The bundled test entry (`main`, with the Remix server bundle inside) is loaded by workerd
    // itself, once per runtime, instead of through Vitest's module runner, which evaluates a
    // file's imports anew for every test file: 0.65 s of CPU a file (decision 094). So is the
    // Remix server bundle where a test imports it alone.
    server: { deps: { external: [/\/build\/server\/index\.js$/, /\/build\/test-worker\//] } },
    // Local fakes of the Stripe API and of Cloudflare's cache purge API (Node), for the tests that
    // configure them.
    // And the Digital Credentials Consortium's verifier (Node, offline) for the credential tests.
    globalSetup: [
      "./tests/workers/fake-stripe.ts",
      "./tests/workers/fake-cloudflare.ts",
      "./tests/workers/dcc-verifier.ts",
      // And the Learner Credential Wallet's DIDAuth, signed by its own libraries (Node).
      "./tests/workers/lcw-wallet.ts",
      // And other issuers' badges and credentials, made by their libraries (Node; issue 32).
      "./tests/workers/outside-issuer.ts",
    ],
    // Tests drive whole flows (sign-up, confirm, several posts) through workerd; on a busy
    // machine one can pass 5 s, and a timeout mid-test also breaks isolated storage for the
    // rest of the run. A real hang still fails.
    testTimeout: 30_000,
    // A test that fails once is a defect to find, not noise (issue 42): no retries.
    retry: 0,
    hookTimeout: 60_000,
    // Remix's server packages are CommonJS with circular requires; pre-bundling them as ESM
    // is what lets workerd load them under Vitest.
    deps: {
      optimizer: {
        ssr: {
          enabled: true,
          include: [
            "@remix-run/cloudflare",
            "@remix-run/server-runtime",
            "cookie",
            "set-cookie-parser",
            "jsonld",
            // For the component render tests (SubmitButton): radix-ui's barrel imports
            // react-remove-scroll, whose bare subpath imports workerd cannot resolve unbundled.
            "radix-ui",
            "@simplewebauthn/server",
          ],
          // jsonld's browser build (no Node HTTP client), as the Worker's own bundle uses.
          esbuildOptions: { platform: "browser" as const },
        },
      },
    },
    poolOptions: {
      workers: {
        singleWorker: true,
        isolatedStorage: true,
        main: `./${TEST_WORKER_MAIN}`,
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: await readD1Migrations("./migrations"),
            ENVIRONMENT: "test",
            APP_URL: "http://localhost",
            SESSION_SECRET: "test-secret-0123456789-0123456789-0123456789",
            // Two-factor's own secret (decision 098), so the tests can tell it from SESSION_SECRET.
            TWO_FACTOR_SECRETS: "1:test-two-factor-secret-0123456789-0123456789",
            RESEND_API_KEY: "",
            STRIPE_SECRET_KEY: "",
            // The webhook tests sign their payloads with this secret.
            STRIPE_WEBHOOK_SECRET: "whsec_test_0123456789abcdef",
          },
        },
      },
    },
  },
}));
