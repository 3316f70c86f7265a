import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The README's deploy steps must create everything wrangler.toml binds: a deploy that follows them
// and misses a bucket or a queue fails (the backup bucket and the queue were once missing), and the
// architecture diagram must name every cron the Worker runs.

type Table = Record<string, string | string[]>;

/**
 * Reads the tables of wrangler.toml this test needs: `[name]` and `[[name]]` sections whose keys
 * hold a string or a one-line array of strings. Not a TOML parser (no TOML parser is among the
 * project's own dependencies): anything else on a line is ignored.
 */
function readTables(toml: string): Map<string, Table[]> {
  const tables = new Map<string, Table[]>();
  let current: Table | undefined;
  for (const line of toml.split("\n")) {
    const header = line.match(/^\s*\[\[?([\w.]+)\]\]?\s*(#.*)?$/);
    if (header) {
      current = {};
      const name = header[1]!;
      tables.set(name, [...(tables.get(name) ?? []), current]);
      continue;
    }
    const entry = line.match(/^\s*([\w-]+)\s*=\s*(".*?"|\[.*\])\s*(#.*)?$/);
    if (!entry || !current) continue;
    const value = entry[2]!;
    current[entry[1]!] = value.startsWith("[") ? [...value.matchAll(/"(.*?)"/g)].map((m) => m[1]!) : value.slice(1, -1);
  }
  return tables;
}

function values(tables: Map<string, Table[]>, section: string, key: string): string[] {
  return (tables.get(section) ?? []).flatMap((table) => table[key] ?? []);
}

/** The text of the README section under `## {title}`, up to the next `## ` heading. */
function section(readme: string, title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  if (start === -1) throw new Error(`README.md has no "## ${title}" section`);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

const tables = readTables(readFileSync("wrangler.toml", "utf8"));
const readme = readFileSync("README.md", "utf8");
const deploySteps = section(readme, "Deploying to Cloudflare");
const architecture = section(readme, "Architecture");

// A queue the Worker both sends to and consumes is created once.
const queues = [
  ...new Set([...values(tables, "queues.consumers", "queue"), ...values(tables, "queues.producers", "queue")]),
];
const created = [
  ...values(tables, "d1_databases", "database_name").map((name) => ({
    binding: `D1 database ${name}`,
    command: `wrangler d1 create ${name}`,
  })),
  ...values(tables, "r2_buckets", "bucket_name").map((name) => ({
    binding: `R2 bucket ${name}`,
    command: `wrangler r2 bucket create ${name}`,
  })),
  ...queues.map((name) => ({
    binding: `queue ${name}`,
    command: `wrangler queues create ${name}`,
  })),
];

describe("the README's deploy steps", () => {
  it("reads the bindings of wrangler.toml", () => {
    // A reader that found nothing would pass every check below.
    expect(created.map(({ binding }) => binding)).toEqual(
      expect.arrayContaining(["D1 database career-passport", "R2 bucket career-passport-media", "queue media-backup"]),
    );
  });

  it.each(created)("create the $binding", ({ binding, command }) => {
    // The whole name: creating career-passport-media-backup does not create career-passport-media.
    // (D1, R2 and queue names are letters, digits and dashes: nothing to escape.)
    const creates = new RegExp(`${command}(?![\\w-])`);
    // A boolean with a message: the section's whole text in a diff would hide the binding's name.
    expect(creates.test(deploySteps), `no \`${command}\` in the deploy steps for the ${binding}`).toBe(true);
  });
});

describe("the README's architecture diagram", () => {
  const crons = values(tables, "triggers", "crons");

  it("reads the crons of wrangler.toml", () => {
    expect(crons.length).toBeGreaterThan(0);
  });

  it.each(crons)("names the cron %s", (cron) => {
    expect(architecture.includes(cron), `the cron "${cron}" is not in the architecture diagram`).toBe(true);
  });
});
