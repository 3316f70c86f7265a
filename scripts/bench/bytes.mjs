// Page weight as a first visit pays it: the HTML, the JavaScript the page loads before it is
// interactive (scripts, module preloads and their static imports, not lazy `import()` chunks)
// and its stylesheets, each gzipped here at level 9 (what a CDN's best static compression gives)
// so the figure does not depend on whether `wrangler dev` compresses.
import { gzipSync } from "node:zlib";

export const GZIP_LEVEL = 9;
const gzipBytes = (buffer) => gzipSync(buffer, { level: GZIP_LEVEL }).length;

/** `headers` (a signed-in page's Cookie) go with the page's request only: assets are public. */
export async function measurePageBytes(pageUrl, headers = {}) {
  const html = Buffer.from(await (await fetchOk(pageUrl, headers)).arrayBuffer());
  const { scripts, stylesheets } = referencedAssets(html.toString("utf8"), pageUrl);
  const js = await sumGzip(await scriptGraph(scripts));
  const css = await sumGzip(stylesheets);
  return {
    htmlRaw: html.length,
    html: gzipBytes(html),
    js: js.total,
    jsFiles: js.files,
    css: css.total,
    cssFiles: css.files,
  };
}

/** URLs of the module scripts and stylesheets an HTML page references, resolved against it. */
export function referencedAssets(html, pageUrl) {
  const scripts = new Set();
  const stylesheets = new Set();
  const resolve = (href) => new URL(decodeEntities(href), pageUrl).href;
  for (const tag of html.match(/<(?:script|link)\b[^>]*>/gi) ?? []) {
    const attrs = attributes(tag);
    if (/^<script/i.test(tag) && attrs.src) scripts.add(resolve(attrs.src));
    const rel = (attrs.rel ?? "").toLowerCase().split(/\s+/);
    if (rel.includes("modulepreload") && attrs.href) scripts.add(resolve(attrs.href));
    if (rel.includes("stylesheet") && attrs.href) stylesheets.add(resolve(attrs.href));
  }
  // Remix boots from inline module scripts that import the entry and route modules.
  for (const [, body] of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)) {
    for (const specifier of importSpecifiers(body, { dynamic: true })) scripts.add(resolve(specifier));
  }
  return { scripts: [...scripts], stylesheets: [...stylesheets] };
}

/**
 * The scripts plus everything they import statically, transitively: what the browser must fetch
 * before the modules run. Dynamic imports inside modules are lazy and left out.
 */
async function scriptGraph(entries) {
  const seen = new Set(entries);
  const queue = [...entries];
  while (queue.length > 0) {
    const url = queue.shift();
    const source = await (await fetchOk(url)).text();
    for (const specifier of importSpecifiers(source, { dynamic: false })) {
      const resolved = new URL(specifier, url).href;
      if (!seen.has(resolved)) {
        seen.add(resolved);
        queue.push(resolved);
      }
    }
  }
  return [...seen];
}

/**
 * Relative or absolute-path module specifiers in `import … from "x"`, `import "x"`,
 * `export … from "x"` (and `import("x")`).
 */
export function importSpecifiers(source, { dynamic }) {
  const found = [];
  const isPath = (specifier) => /^(\.{1,2}\/|\/)/.test(specifier);
  for (const [, specifier] of source.matchAll(
    /(?:\bimport|\bexport)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+)["']/g,
  )) {
    if (isPath(specifier)) found.push(specifier);
  }
  if (dynamic) {
    for (const [, specifier] of source.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) {
      if (isPath(specifier)) found.push(specifier);
    }
  }
  return found;
}

async function sumGzip(urls) {
  const files = [];
  for (const url of urls) {
    const body = Buffer.from(await (await fetchOk(url)).arrayBuffer());
    files.push({ path: new URL(url).pathname, raw: body.length, gzip: gzipBytes(body) });
  }
  return { total: files.reduce((sum, file) => sum + file.gzip, 0), files };
}

async function fetchOk(url, headers = {}) {
  const response = await fetch(url, { headers, redirect: "manual" });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return response;
}

function attributes(tag) {
  const attrs = {};
  for (const [, name, , doubleQuoted, singleQuoted, bare] of tag.matchAll(
    /([\w:-]+)\s*=\s*("([^"]*)"|'([^']*)'|([^\s"'>]+))/g,
  )) {
    attrs[name.toLowerCase()] = doubleQuoted ?? singleQuoted ?? bare;
  }
  return attrs;
}

const decodeEntities = (value) => value.replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#x27;", "'");
