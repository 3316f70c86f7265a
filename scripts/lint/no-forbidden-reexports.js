import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parse } from "@typescript-eslint/parser";

// A lint rule that forbids importing some modules, directly or through any module that re-exports
// from them (`export … from`, `export *`, or an import exported again), however deep the chain.
// no-restricted-imports sees only the specifier written in the file, so a helper re-exported by
// a harmless-looking module would pass it (issue 42: services import no form-reply, cookie or
// upload helper). Specifiers are resolved as the app resolves them: relative paths and the
// package.json "imports" map (#app/*, #db/*); a package's own modules are not followed.

/** A module's re-export targets, by file: kept while the file is unchanged (its mtime). */
const reexportsByFile = new Map();
/** The package.json "imports" map, by package root. */
const importsByRoot = new Map();

/** The nearest directory above `file` with a package.json: what `#…` specifiers resolve against. */
function packageRoot(file) {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (importsByRoot.has(dir) || isFile(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) return null;
  }
}

function packageImports(root) {
  if (!importsByRoot.has(root)) {
    const { imports = {} } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
    importsByRoot.set(root, imports);
  }
  return importsByRoot.get(root);
}

function isFile(file) {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The file `specifier` names from `fromFile`, or null for a package or a file that is not there. */
function resolve(specifier, fromFile) {
  let target = null;
  if (specifier.startsWith(".")) target = path.resolve(path.dirname(fromFile), specifier);
  else if (specifier.startsWith("#")) {
    const root = packageRoot(fromFile);
    for (const [pattern, replacement] of Object.entries(root ? packageImports(root) : {})) {
      const [prefix, suffix = ""] = pattern.split("*");
      const starred = pattern.includes("*");
      const matches = starred
        ? specifier.startsWith(prefix) && specifier.endsWith(suffix) && specifier.length >= pattern.length - 1
        : specifier === pattern;
      if (!matches || typeof replacement !== "string") continue;
      const middle = specifier.slice(prefix.length, specifier.length - suffix.length);
      target = path.resolve(root, starred ? replacement.replace("*", middle) : replacement);
      break;
    }
  }
  if (!target) return null;
  const candidates = [target, ...[".ts", ".tsx", ".js", "/index.ts"].map((ending) => target + ending)];
  return candidates.find(isFile) ?? null;
}

/** The files `file` re-exports from, read (and parsed) once while it is unchanged. */
function reexportsOf(file) {
  const mtime = statSync(file).mtimeMs;
  const cached = reexportsByFile.get(file);
  if (cached?.mtime === mtime) return cached.targets;
  const specifiers = [];
  try {
    const program = parse(readFileSync(file, "utf8"), { sourceType: "module", jsx: file.endsWith("x") });
    // `import { a } from "m"; export { a }` re-exports as surely as `export { a } from "m"`.
    const importedFrom = new Map();
    for (const node of program.body) {
      if (node.type !== "ImportDeclaration") continue;
      for (const specifier of node.specifiers) importedFrom.set(specifier.local.name, node.source.value);
    }
    for (const node of program.body) {
      if (node.type === "ExportAllDeclaration" || (node.type === "ExportNamedDeclaration" && node.source)) {
        specifiers.push(node.source.value);
      } else if (node.type === "ExportNamedDeclaration") {
        for (const { local } of node.specifiers) {
          if (importedFrom.has(local.name)) specifiers.push(importedFrom.get(local.name));
        }
      }
    }
  } catch {
    // A file that does not parse is reported by the parser when it is linted itself.
  }
  const targets = [...new Set(specifiers.map((specifier) => resolve(specifier, file)).filter(Boolean))];
  reexportsByFile.set(file, { mtime, targets });
  return targets;
}

/** The chain of files from `file` to a forbidden one (both included), or null when none leads there. */
function chainToForbidden(file, forbidden, seen = new Set()) {
  if (forbidden.has(file)) return [file];
  if (seen.has(file)) return null;
  seen.add(file);
  for (const target of reexportsOf(file)) {
    const chain = chainToForbidden(target, forbidden, seen);
    if (chain) return [file, ...chain];
  }
  return null;
}

export default {
  meta: {
    type: "problem",
    docs: { description: "Forbid importing modules, directly or through modules that re-export them" },
    schema: [
      {
        type: "object",
        properties: {
          // Paths from the package root, as written in the repository: "app/utils/cookies.server.ts".
          modules: { type: "array", items: { type: "string" } },
          message: { type: "string" },
        },
        required: ["modules"],
        additionalProperties: false,
      },
    ],
    messages: { forbidden: '"{{specifier}}" leads to {{chain}}. {{message}}' },
  },
  create(context) {
    const { modules, message = "" } = context.options[0];
    const root = packageRoot(context.filename);
    if (!root) return {};
    const forbidden = new Set(modules.map((module) => path.resolve(root, module)));
    const check = (source) => {
      if (source?.type !== "Literal" || typeof source.value !== "string") return;
      const file = resolve(source.value, context.filename);
      const chain = file && chainToForbidden(file, forbidden);
      if (!chain) return;
      const shown = chain.map((step) => path.relative(root, step).split(path.sep).join("/")).join(" → ");
      context.report({
        node: source,
        messageId: "forbidden",
        data: { specifier: source.value, chain: shown, message },
      });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
    };
  },
};
