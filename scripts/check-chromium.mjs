// Playwright cannot download its own browser here; the suite drives Debian's Chromium instead.
// Where it is missing, this obtains it: with apt-get when run as root (a fresh CI machine or
// container), so that `npm ci && npm test` is the whole set-up; anyone else is told the command
// (docs/decisions/082). CHROMIUM_PATH points at another Chromium.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const path = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const command = "apt-get update && apt-get install -y chromium";

if (!existsSync(path)) {
  const canInstall = !process.env.CHROMIUM_PATH && process.getuid?.() === 0 && existsSync("/usr/bin/apt-get");
  if (!canInstall) {
    console.error(`Chromium not found at ${path}: run '${command}' as root (or set CHROMIUM_PATH).`);
    process.exit(1);
  }
  console.log(`Chromium not found at ${path}: installing Debian's (${command})`);
  const apt = (...args) =>
    execFileSync("apt-get", args, {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  apt("update", "-qq");
  apt("install", "-y", "-qq", "chromium");
  if (!existsSync(path)) {
    console.error(`apt-get installed chromium, but ${path} is still missing.`);
    process.exit(1);
  }
}
