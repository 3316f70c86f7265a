// Playwright cannot download its own browser here; the suite drives Debian's Chromium instead.
import { existsSync } from "node:fs";

const path = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(path)) {
  console.error(
    `Chromium not found at ${path}: run 'apt-get update && apt-get install -y chromium' (or set CHROMIUM_PATH).`,
  );
  process.exit(1);
}
