// Types of bundles.mjs for the TypeScript tests that read the build with it (tests/e2e/budgets.spec.ts).
export type BundleFile = { path: string; raw: number; gzip: number };
export type RouteBundle = { routeId: string; js: number; initial: BundleFile[]; lazy: BundleFile[] };
export const CLIENT_DIR: string;
export const SIGNED_IN_JS_BUDGET: number;
export const SIGNED_IN_ROUTES: { path: string; routeId: string }[];
export function routeBundle(routeId: string, clientDir?: string): RouteBundle;
