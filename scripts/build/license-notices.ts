import type { Plugin } from "vite";

// The minifier keeps each source module's license comment (`@license`, `@preserve`, `/*!`) in the
// chunk it lands in: every small chunk of the browser build paid for its lucide ISC banner, and
// the framework for React's and Remix's, about 1 kB of gzip on each signed-in page's first load,
// which gzip cannot share between files (docs/decisions/046). The browser build moves them into
// one file instead, /assets/licenses.txt, each notice once, as webpack's `extractComments` does.
// Not in a build with source maps, whose columns the cut would shift (`SOURCEMAP=1`, never
// measured or shipped).

const LICENSE_COMMENT =
  /\/\*[*!](?:[^*]|\*(?!\/))*?(?:@license|@preserve|@copyright|Copyright \(c\))(?:[^*]|\*(?!\/))*\*\//g;

const LICENSES_FILE = "assets/licenses.txt";

/** Moves every license comment of the client's JavaScript chunks into LICENSES_FILE. */
export function licenseNoticesInOneFile(): Plugin {
  return {
    name: "license-notices-in-one-file",
    apply: (_config, { isSsrBuild }) => !isSsrBuild,
    generateBundle(options, bundle) {
      if (options.sourcemap) return;
      const notices = new Set<string>();
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== "chunk") continue;
        chunk.code = chunk.code.replace(LICENSE_COMMENT, (comment) => {
          notices.add(comment);
          return "";
        });
      }
      if (notices.size === 0) return;
      const text = [...notices].map((comment) => comment.replace(/^\/\*[*!]\s*|\s*\*\/$/g, "").replace(/^ ?\* ?/gm, ""));
      this.emitFile({ type: "asset", fileName: LICENSES_FILE, source: `${text.join("\n\n---\n\n")}\n` });
    },
  };
}
