// The JavaScript each route of the production client build makes a first visit load, read from
// the build itself (Remix's manifest in build/client/assets and the chunks it names), so the
// figures are the same on every machine: `npm run bundles` writes them to bench/bundles.md, the
// bench repeats them, and tests/e2e/budgets.spec.ts holds the signed-in routes to their budget.
//
// First load = what Remix server-renders as module preloads for a URL: the client entry, and for
// the root and every route down to the page, its module and the chunks it imports, plus anything
// those import statically. Not the manifest file: with lazy route discovery (vite.config.ts) the
// page's part of the manifest is inlined in its HTML and the file is never loaded
// (tests/e2e/budgets.spec.ts compares this list with a real page's preloads). Lazy chunks
// (`import()`, loaded on interaction) are listed apart and not counted: a visit that never opens
// the popover never loads them.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { GZIP_LEVEL, importSpecifiers } from "./bytes.mjs";

export const CLIENT_DIR = "build/client";

/** Issue 19: the pages people use every day load at most this much JavaScript (gzip) at first. */
export const SIGNED_IN_JS_BUDGET = 100 * 1024;

/** The signed-in pages of issue 19 and the deepest Remix route each one renders. */
export const SIGNED_IN_ROUTES = [
  { path: "/dashboard", routeId: "routes/_app.dashboard" },
  { path: "/passport", routeId: "routes/_app.passport._index" },
  { path: "/settings", routeId: "routes/_app.settings._index" },
];

/** The build's whole Remix manifest (routes, their modules and imports). */
export function readManifest(clientDir = CLIENT_DIR) {
  const name = readdirSync(join(clientDir, "assets")).find((file) => /^manifest-[\w-]+\.js$/.test(file));
  if (!name) throw new Error(`No Remix manifest in ${clientDir}/assets: run \`npm run build\` first.`);
  const source = readFileSync(join(clientDir, "assets", name), "utf8");
  const json = source.slice(source.indexOf("{"), source.lastIndexOf("}") + 1);
  return JSON.parse(json);
}

/**
 * The first-load JavaScript of one route (by Remix route id) and the lazy chunks it can load,
 * each file with its raw and gzip (level 9) size; `js` is the first-load gzip total.
 */
export function routeBundle(routeId, clientDir = CLIENT_DIR) {
  const manifest = readManifest(clientDir);
  if (!manifest.routes[routeId]) throw new Error(`No route ${routeId} in the build's manifest.`);
  const chain = [];
  for (let id = routeId; id; id = manifest.routes[id].parentId) chain.unshift(manifest.routes[id]);
  const roots = [manifest.entry.module, ...manifest.entry.imports];
  for (const route of chain) roots.push(route.module, ...(route.imports ?? []));

  const files = new Map();
  const read = (path) => {
    if (!files.has(path)) {
      const body = readFileSync(join(clientDir, path));
      files.set(path, { path, raw: body.length, gzip: gzipSync(body, { level: GZIP_LEVEL }).length, body });
    }
    return files.get(path);
  };
  const staticClosure = (entries) => {
    const seen = new Set(entries);
    const queue = [...entries];
    while (queue.length > 0) {
      const path = queue.shift();
      for (const specifier of importSpecifiers(read(path).body.toString("utf8"), { dynamic: false })) {
        const resolved = new URL(specifier, `http://build${path}`).pathname;
        if (!seen.has(resolved)) {
          seen.add(resolved);
          queue.push(resolved);
        }
      }
    }
    return seen;
  };

  const initial = staticClosure(roots);
  // Lazy chunks reachable from the first load (and from each other), with their own static imports
  // that the first load does not already bring.
  const lazy = new Set();
  const pending = [...initial];
  while (pending.length > 0) {
    const path = pending.shift();
    for (const [, specifier] of read(path)
      .body.toString("utf8")
      .matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) {
      for (const chunk of staticClosure([new URL(specifier, `http://build${path}`).pathname])) {
        if (!initial.has(chunk) && !lazy.has(chunk)) {
          lazy.add(chunk);
          pending.push(chunk);
        }
      }
    }
  }
  const describe = (paths) => [...paths].map((path) => read(path)).map(({ path, raw, gzip }) => ({ path, raw, gzip }));
  const initialFiles = describe(initial).sort((a, b) => b.gzip - a.gzip);
  return {
    routeId,
    js: initialFiles.reduce((sum, file) => sum + file.gzip, 0),
    initial: initialFiles,
    lazy: describe(lazy).sort((a, b) => b.gzip - a.gzip),
  };
}

const kB = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;

/** bench/bundles.md: every signed-in route's first load file by file, its lazy chunks, and the budget. */
export function bundleReport(clientDir = CLIENT_DIR) {
  const bundles = SIGNED_IN_ROUTES.map((route) => ({ ...route, ...routeBundle(route.routeId, clientDir) }));
  const lines = [
    "# JavaScript per signed-in route",
    "",
    "Generated by `npm run bundles` (scripts/bench/bundles.mjs) from the production build in build/client: what a",
    "first visit preloads (the client entry, every route module from the root down to the page, the chunks they",
    `import, transitively; the page's part of the manifest is inlined in its HTML), gzip level ${GZIP_LEVEL}.`,
    "Lazy chunks load on first interaction (opening a dialog or the notifications) and are not counted.",
    `Budget (issue 19): at most ${kB(SIGNED_IN_JS_BUDGET)} per page.`,
    "/dashboard loads the same modules for an organisation admin and for a member: what differs is rendered, not loaded.",
    "",
    "| Page | Route | First-load JS | Files | Lazy chunks | Budget |",
    "|---|---|---|---|---|---|",
    ...bundles.map(
      (bundle) =>
        `| ${bundle.path} | \`${bundle.routeId}\` | ${kB(bundle.js)} | ${bundle.initial.length} | ${kB(
          bundle.lazy.reduce((sum, file) => sum + file.gzip, 0),
        )} in ${bundle.lazy.length} | ${bundle.js <= SIGNED_IN_JS_BUDGET ? "pass" : "FAIL"} |`,
    ),
    "",
  ];
  for (const bundle of bundles) {
    lines.push(`## ${bundle.path}`, "", "| First load | raw | gzip |", "|---|---|---|");
    for (const file of bundle.initial) lines.push(`| \`${file.path}\` | ${kB(file.raw)} | ${kB(file.gzip)} |`);
    lines.push(
      `| **total** | ${kB(bundle.initial.reduce((sum, file) => sum + file.raw, 0))} | **${kB(bundle.js)}** |`,
      "",
    );
    if (bundle.lazy.length > 0) {
      lines.push("| Lazy (on interaction) | raw | gzip |", "|---|---|---|");
      for (const file of bundle.lazy) lines.push(`| \`${file.path}\` | ${kB(file.raw)} | ${kB(file.gzip)} |`);
      lines.push("");
    }
  }
  return { markdown: lines.join("\n"), bundles };
}
