import { cloudflareDevProxyVitePlugin as remixCloudflareDevProxy, vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { getLoadContext } from "./workers/load-context.ts";

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig(({ command, mode }) => ({
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
    minify: true,
  },
}));
