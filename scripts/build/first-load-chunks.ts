import type { GetManualChunk } from "rollup";

// How the browser build groups the modules every signed-in page loads first (docs/decisions/043).
// Left to itself, Rollup makes one chunk per set of pages sharing a module: a signed-in page
// preloaded 38 to 44 files, most under 1 kB, and gzip compresses each alone (its dictionary starts
// empty in every file), which cost about 10 kB of the 100 kB budget of issue 19. Three chunks
// instead: the framework, what the root route needs (every page with JavaScript), and what the
// signed-in layout adds. Page routes, and everything loaded on interaction, stay as Rollup makes
// them.

/** React, React DOM and Remix's router: one chunk, the same for every page. */
const FRAMEWORK = /\/node_modules\/(react|react-dom|scheduler|react-router|react-router-dom|turbo-stream|@remix-run\/[^/]+)\//;

/**
 * Modules that re-export a whole library. Rollup puts every static import of a module in a manual
 * chunk into that chunk too, so a shell module importing one icon through lucide-react's index
 * would bring every icon any page uses, and radix-ui's index every primitive (the dialogs too).
 * A shell module imports what it uses by path (`lucide-react/icons/x`).
 */
const BARRELS = [
  /\/node_modules\/lucide-react\/dist\/esm\/lucide-react\.mjs$/,
  /\/node_modules\/radix-ui\//,
  /\/node_modules\/@conform-to\/react\/dist\/index\.mjs$/,
];

/** Each shell chunk and the modules whose static imports fill it, in order: a module joins the first. */
const SHELLS = [
  { chunk: "root-shell", entries: ["app/entry.client.tsx", "app/root.tsx"] },
  {
    chunk: "app-shell",
    entries: [
      "app/routes/_app.tsx",
      // Small modules that two or three of the daily pages (dashboard, passport, settings) import
      // first: in the shell, not five more files of a few hundred bytes on each page. Measured per
      // page, /dashboard 102,324 → 100,995 bytes, /passport 101,376 → 100,885, /settings 97,516 →
      // 96,552; the public pages with scripts (sign-in, join, credential) load 0.1 to 0.4 kB more.
      "app/components/submit-button.tsx",
      "app/components/ui/card.tsx",
      "app/utils/use-viewer.ts",
      "app/components/confirm-action.tsx",
      "app/utils/dates.ts",
      // The same for the deferred hydration's helper and three icons the daily pages draw at
      // first: /passport 102,471 → 101,877 bytes (issue 43's additions had taken it over 100 kB),
      // /dashboard 102,342 → 102,272, /settings 97,905 → 97,839.
      "app/utils/after-interaction.tsx",
      "node_modules/lucide-react/dist/esm/icons/check.mjs",
      "node_modules/lucide-react/dist/esm/icons/plus.mjs",
      "node_modules/lucide-react/dist/esm/icons/x.mjs",
    ],
  },
];

/** Rollup's `output.manualChunks` for the client build of the app in `projectRoot`. */
export function firstLoadChunks(projectRoot: string): GetManualChunk {
  let shellChunkOf: Map<string, string> | undefined;
  return (id, { getModuleInfo }) => {
    if (FRAMEWORK.test(id)) return "framework";
    shellChunkOf ??= assignShells(projectRoot, getModuleInfo);
    return shellChunkOf.get(id);
  };
}

function assignShells(projectRoot: string, getModuleInfo: Parameters<GetManualChunk>[1]["getModuleInfo"]) {
  const chunkOf = new Map<string, string>();
  for (const { chunk, entries } of SHELLS) {
    const queue = entries.map((entry) => `${projectRoot}/${entry}`);
    for (const id of queue) {
      if (chunkOf.has(id) || FRAMEWORK.test(id)) continue;
      const info = getModuleInfo(id);
      if (!info) throw new Error(`first-load-chunks: no module ${id} in the client build.`);
      chunkOf.set(id, chunk);
      for (const imported of info.importedIds) {
        if (BARRELS.some((barrel) => barrel.test(imported)))
          throw new Error(
            `first-load-chunks: ${id} imports ${imported}, which would bring the whole library into the ` +
              `${chunk} chunk: import what it uses by path (docs/decisions/043).`,
          );
        queue.push(imported);
      }
    }
  }
  return chunkOf;
}
