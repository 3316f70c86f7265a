import { cloudflareDevProxyVitePlugin as remixCloudflareDevProxy, vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { commonPasswordList } from "./scripts/build/common-passwords.ts";
import { firstLoadChunks } from "./scripts/build/first-load-chunks.ts";
import { licenseNoticesInOneFile } from "./scripts/build/license-notices.ts";
import { getLoadContext } from "./workers/load-context.ts";

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * jsonld.js picks its platform (HTTP document loaders) through package.json's "browser" map,
 * which the server build does not apply to CommonJS requires: the Node platform would bundle an
 * HTTP client built on Node's sockets. The Worker needs neither, as it never fetches a context.
 */
const jsonldBrowserPlatform: Plugin = {
  name: "jsonld-browser-platform",
  enforce: "pre",
  resolveId(source, importer) {
    if (source === "./platform" && importer?.replace(/\\/g, "/").includes("/jsonld/lib/"))
      return this.resolve("./platform-browser.js", importer, { skipSelf: true });
  },
};

/**
 * A package.json beside the server bundle that says it is an ES module. The Workers tests load the
 * bundle natively (vitest.config.ts), and their pool caches a folder's module type by the folder
 * of the package.json it read: without this file it would read the project's, cache the project's
 * folder as "module", and then take CommonJS files deeper in node_modules for ES modules.
 */
const serverBundleIsModule: Plugin = {
  name: "server-bundle-is-module",
  generateBundle() {
    this.emitFile({ type: "asset", fileName: "package.json", source: '{ "type": "module" }\n' });
  },
};

export default defineConfig(({ command, mode, isSsrBuild }) => ({
  // Wrangler replaces process.env.NODE_ENV with "development" under `wrangler dev`, which would
  // make the server bundle run React's development build (about twice the render cost). The
  // build's own mode decides instead.
  define: command === "build" ? { "process.env.NODE_ENV": JSON.stringify(mode) } : undefined,
  plugins: [
    // Bindings (local D1, R2) for `npm run dev`; the production build does not need them.
    command === "serve" ? remixCloudflareDevProxy({ getLoadContext }) : null,
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
    tailwindcss(),
    jsonldBrowserPlatform,
    licenseNoticesInOneFile(),
    commonPasswordList(),
    isSsrBuild ? serverBundleIsModule : null,
  ],
  ssr: {
    // One self-contained server bundle for production: wrangler and the Workers test pool load
    // it as it is. (The dev server runs in Node and keeps dependencies external.)
    noExternal: command === "build" ? true : undefined,
    resolve: {
      conditions: ["workerd", "worker", "browser"],
      externalConditions: ["workerd", "worker"],
    },
  },
  resolve: {
    mainFields: ["browser", "module", "main"],
  },
  build: {
    // The browser's code goes through terser: about 3% less gzip than esbuild's minifier on the
    // same chunks, 4 to 5 kB of every signed-in page's first load (docs/decisions/039). The
    // server bundle keeps esbuild's, which is many times faster on its 1.5 MB.
    minify: isSsrBuild ? true : "terser",
    terserOptions: isSsrBuild ? undefined : { compress: { passes: 2 } },
    // `SOURCEMAP=1 npm run build` writes the client's source maps, to see which modules fill a
    // chunk (docs/decisions/039); never in a build that is measured or shipped.
    sourcemap: process.env.SOURCEMAP === "1" && !isSsrBuild,
    // The client's lazy chunks (dialogs, the notification popover, the toaster: decision 035) are
    // one module on the server, which renders them anyway: the server build stays one file. The
    // client's first load comes in three chunks (docs/decisions/043).
    rollupOptions: {
      output: isSsrBuild ? { inlineDynamicImports: true } : { manualChunks: firstLoadChunks(import.meta.dirname) },
      // Importing a component runs nothing but its definitions, so the browser's build may drop a
      // component module nothing uses. Without this, the server-only half of a lazy form
      // (`import.meta.env.SSR ? Form : lazy(...)`) still ran in the browser at import: its static
      // import stayed, and with it each primitive's `displayName` assignment, so the form's
      // fields, labels and validators came with the first load of every page that has the dialog.
      treeshake: isSsrBuild ? undefined : { moduleSideEffects: (id) => !/\/app\/components\/.+\.tsx$/.test(id) },
    },
  },
}));
