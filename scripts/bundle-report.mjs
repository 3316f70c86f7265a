// `npm run bundles`: writes bench/bundles.md, the JavaScript each signed-in route loads at first
// (and lazily), from the current build/client. Build first (`npm run build`). Exits 1 when a
// route is over its budget (issue 19).
import { mkdirSync, writeFileSync } from "node:fs";
import { bundleReport, SIGNED_IN_JS_BUDGET } from "./bench/bundles.mjs";

const { markdown, bundles } = bundleReport();
mkdirSync("bench", { recursive: true });
writeFileSync("bench/bundles.md", markdown);
console.log(markdown);
process.exit(bundles.every((bundle) => bundle.js <= SIGNED_IN_JS_BUDGET) ? 0 : 1);
