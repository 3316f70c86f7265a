import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import noForbiddenReexports from "./scripts/lint/no-forbidden-reexports.js";

// Icons by path: a module in a first-load chunk that imported lucide-react's index would bring
// every icon of every page into that chunk (docs/decisions/043).
const iconsByPath = {
  name: "lucide-react",
  message: 'Import each icon by path: import Bell from "lucide-react/icons/bell" (docs/decisions/043).',
  allowTypeImports: true,
};

export default tseslint.config(
  {
    ignores: [
      "build",
      ".wrangler",
      "node_modules",
      "test-results",
      "playwright-report",
      "workers/worker-configuration.d.ts",
    ],
  },
  js.configs.recommended,
  { plugins: { local: { rules: { "no-forbidden-reexports": noForbiddenReexports } } } },
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/ban-ts-comment": ["error", { "ts-ignore": "allow-with-description" }],
      "no-console": "off",
      "@typescript-eslint/no-restricted-imports": ["error", { paths: [iconsByPath] }],
      // Prettier wraps code and we wrap comments at 120; a string, template or regular expression
      // stays whole so that the spec's messages, class lists and test names can be found with
      // grep (docs/decisions/030).
      "max-len": [
        "error",
        { code: 120, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true },
      ],
    },
  },
  {
    // db/ sits below app/: app, workers, tests and scripts import the database layer, never the
    // reverse, so a query module cannot come to depend on a route, a service or the browser's code
    // (issue 28). What db/ needs from app moves down into db/. This block replaces the rule above
    // for db/, so it repeats its paths.
    files: ["db/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [iconsByPath],
          patterns: [
            {
              // A regular expression: in a `group`, a leading # would read as a comment.
              regex: String.raw`^(#app/|(\.\./)+app(/|$))`,
              message: "db/ imports nothing from app/: move the helper it needs down into db/.",
            },
          ],
        },
      ],
    },
  },
  {
    // Services are the domain: they take plain values and return results or throw the typed
    // errors of utils/domain-errors.server.ts, which the route layer answers (issue 28). So no
    // Remix, and no HTTP answer built here.
    files: ["app/services/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [iconsByPath],
          patterns: [
            {
              regex: "^@remix-run/",
              message: "Services know nothing of HTTP: take plain values, throw a domain error (Refusal, NotFound).",
            },
          ],
        },
      ],
      "no-restricted-syntax": [
        "error",
        {
          selector: "NewExpression[callee.name='Response']",
          message: "Services build no HTTP answer: return a result or throw a domain error.",
        },
      ],
      // Nor the route layer's helpers, even through a module that re-exports one (issue 42): a
      // form's reply, a cookie and an upload's parsing are HTTP. A service takes the plain values.
      "local/no-forbidden-reexports": [
        "error",
        {
          modules: [
            "app/utils/form-reply.ts",
            "app/utils/form-reply.server.ts",
            "app/utils/cookies.server.ts",
            "app/utils/uploads.server.ts",
          ],
          message:
            "Services import no form-reply, cookie or upload helper: take plain values, or move the helper down.",
        },
      ],
    },
  },
  {
    // Browser code (components, hooks, the plain modules of utils) imports no server module, not
    // even a type: a shared type lives in a plain module (toast-message.ts, viewer.ts). Route
    // modules may, since Remix strips their server exports from the browser build.
    files: ["app/components/**", "app/utils/**", "app/entry.client.tsx"],
    ignores: ["**/*.server.ts", "**/*.server.tsx"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [iconsByPath],
          patterns: [
            {
              regex: String.raw`\.server(\.tsx?)?$`,
              message:
                "Browser code imports no .server module, types included: move the shared type to a plain module.",
            },
          ],
        },
      ],
    },
  },
  {
    // A change that alters a public passport forgets its cached pages in the service that makes
    // it, so no route or Worker endpoint can forget (tests/workers/passport-cache.test.ts changes
    // each kind and checks the cache).
    files: ["app/routes/**", "workers/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [
            iconsByPath,
            {
              name: "#app/utils/passport-cache.server.ts",
              importNames: ["invalidatePassports"],
              message: "Change the passport through a service (app/services), which forgets its cached pages itself.",
            },
          ],
        },
      ],
    },
  },
  {
    // Budgets held by lint, not by promise (issue 42): every line counts, comments and blank ones
    // too. A module that outgrows its budget is split by job; the budget does not move.
    files: ["app/routes/**"],
    rules: { "max-lines": ["error", { max: 250, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ["app/services/**", "db/queries/**"],
    rules: { "max-lines": ["error", { max: 300, skipBlankLines: false, skipComments: false }] },
  },
  {
    // Playwright fixtures take `use` and an empty destructuring by design.
    files: ["tests/e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off", "no-empty-pattern": "off" },
  },
  {
    // Routes may not call the auth library's write API (issue 42): the accounts service
    // (app/services/accounts) does, with the one password re-check, throttle and security mail, so
    // no route can change an account without them. The library reaches a route only as the load
    // context's `auth`, so reading `auth` at all (`context.auth`, `context["auth"]`, or destructured)
    // is refused, and so is any `.api` member (an auth instance got another way). Reads of the
    // session go through `context.getSession()`. Its own block, at the end: no earlier block sets
    // no-restricted-syntax for app/routes, and a later one would replace this one for those files.
    files: ["app/routes/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ...[
          "MemberExpression[property.name='auth']",
          "MemberExpression[computed=true][property.value='auth']",
          "MemberExpression[property.name='api']",
          "MemberExpression[computed=true][property.value='api']",
          "ObjectPattern > Property[key.name='auth']",
          "ObjectPattern > Property[key.value='auth']",
        ].map((selector) => ({
          selector,
          message: "Routes do not call the auth library: use the accounts service (app/services/accounts).",
        })),
      ],
    },
  },
);
