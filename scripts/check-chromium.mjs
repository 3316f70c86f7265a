// Playwright cannot download its own browser here; the suite drives Debian's headless Chromium
// instead (scripts/browser.mjs). Where it is missing, this obtains it: with apt-get when run as
// root (a fresh CI machine or container), so that `npm ci && npm test` is the whole set-up; anyone
// else is told the command (decisions 082 and 084). CHROMIUM_PATH points at another Chromium.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { BROWSER_PACKAGE, BROWSER_PATH } from "./browser.mjs";

const command = `apt-get update && apt-get install -y ${BROWSER_PACKAGE}`;

if (!existsSync(BROWSER_PATH)) {
  const canInstall = !process.env.CHROMIUM_PATH && process.getuid?.() === 0 && existsSync("/usr/bin/apt-get");
  if (!canInstall) {
    console.error(`Chromium not found at ${BROWSER_PATH}: run '${command}' as root (or set CHROMIUM_PATH).`);
    process.exit(1);
  }
  console.log(`Chromium not found at ${BROWSER_PATH}: installing Debian's (${command})`);
  const apt = (...args) =>
    execFileSync("apt-get", args, {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  apt("update", "-qq");
  apt("install", "-y", "-qq", BROWSER_PACKAGE);
  if (!existsSync(BROWSER_PATH)) {
    console.error(`apt-get installed ${BROWSER_PACKAGE}, but ${BROWSER_PATH} is still missing.`);
    process.exit(1);
  }
}
