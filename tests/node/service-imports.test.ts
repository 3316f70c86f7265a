import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// The domain's modules form no import cycle (issue 42): a cycle means two modules that can only
// be understood, changed and loaded together, as the wallet exchange and its acceptance once were.
// Read from the sources themselves, so the check costs milliseconds and needs no lint plugin.

const root = resolve(import.meta.dirname, "../..");
const SERVICES = "app/services";

function modulesUnder(folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return modulesUnder(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The modules of app/services a module imports (types included: a type cycle is a cycle of ideas). */
function serviceImports(module: string): string[] {
  const source = readFileSync(join(root, module), "utf8");
  const specifiers = [...source.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/gm)].map((m) => m[1]!);
  return specifiers
    .map((specifier) =>
      specifier.startsWith("#app/")
        ? `app/${specifier.slice("#app/".length)}`
        : specifier.startsWith(".")
          ? relative(root, resolve(root, dirname(module), specifier))
          : null,
    )
    .filter((path): path is string => path !== null && path.startsWith(`${SERVICES}/`));
}

/** Every cycle's modules, in import order (each cycle once, from its first module found). */
function cyclesAmong(graph: Map<string, string[]>) {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const visit = (module: string, path: string[]) => {
    const at = path.indexOf(module);
    if (at >= 0) return void cycles.push([...path.slice(at), module]);
    if (done.has(module)) return;
    for (const next of graph.get(module) ?? []) visit(next, [...path, module]);
    done.add(module);
  };
  for (const module of graph.keys()) visit(module, []);
  return cycles;
}

describe("the services' imports", () => {
  const graph = new Map(modulesUnder(SERVICES).map((module) => [module, serviceImports(module)]));

  it("are read from the sources (the wallet's acceptance imports its exchange core)", () => {
    expect(graph.get(`${SERVICES}/wallet-acceptance.server.ts`)).toContain(`${SERVICES}/wallet-exchange.server.ts`);
  });

  it("form no cycle", () => {
    expect(cyclesAmong(graph).map((cycle) => cycle.join(" → "))).toEqual([]);
  });
});
