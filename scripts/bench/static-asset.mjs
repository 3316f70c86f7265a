// The static baseline of a benchmark: the file in build/client whose size is nearest a page's
// uncompressed HTML, the fairest "what serving these bytes costs anyway" the same Worker offers.
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export function closestStaticAsset(targetBytes) {
  const root = "build/client";
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      if (name.startsWith(".")) continue;
      const path = join(dir, name);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else files.push({ path: `/${relative(root, path)}`, bytes: stat.size });
    }
  };
  walk(root);
  files.sort((a, b) => Math.abs(a.bytes - targetBytes) - Math.abs(b.bytes - targetBytes));
  return files[0];
}
