// Part of `npm run lint`: every decision record in docs/decisions/ stays short and says where it
// stands (issue 42). A record fails when it has
// - no `Status:` line (a line starting with "Status:");
// - more than 300 words, counted as `wc -w` counts them (runs of non-space characters);
// - an amendment the two records do not both state. The one syntax, each a paragraph of its own
//   (it may wrap onto several lines):
//     Amends: 013, 029
//     Amended by: 037 (what 037 changed), 044 (…)
//   The record numbers are the three-digit numbers outside parentheses; the parentheses are for
//   the reader. A record that says it amends 045 needs 045's "Amended by:" to name it, and the
//   other way round.
// The template (000) is checked like every other record: it shows the lines a record starts with.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const DIRECTORY = "docs/decisions";
const MAX_WORDS = 300;

function recordNumbers(line) {
  return line.replace(/\([^)]*\)/g, "").match(/\b\d{3}\b/g) ?? [];
}

/** The paragraphs (runs of lines between blank lines) that start with `prefix`. */
function paragraphsStarting(text, prefix) {
  return text.split(/\n\s*\n/).filter((paragraph) => paragraph.startsWith(prefix));
}

const records = readdirSync(DIRECTORY)
  .filter((name) => /^\d{3}-.*\.md$/.test(name))
  .sort()
  .map((name) => {
    const text = readFileSync(join(DIRECTORY, name), "utf8");
    return {
      name,
      number: name.slice(0, 3),
      text,
      amends: paragraphsStarting(text, "Amends:").flatMap(recordNumbers),
      amendedBy: paragraphsStarting(text, "Amended by:").flatMap(recordNumbers),
    };
  });
const byNumber = new Map(records.map((record) => [record.number, record]));

const failures = [];
for (const record of records) {
  if (!/^Status:/m.test(record.text)) failures.push([record.name, "no `Status:` line"]);
  const words = record.text.split(/\s+/).filter(Boolean).length;
  if (words > MAX_WORDS) failures.push([record.name, `${words} words, more than ${MAX_WORDS}`]);
  for (const number of record.amends) {
    const amended = byNumber.get(number);
    if (!amended) failures.push([record.name, `amends ${number}, which does not exist`]);
    else if (!amended.amendedBy.includes(record.number))
      failures.push([amended.name, `amended by ${record.number} but has no "Amended by: ${record.number}" line`]);
  }
  for (const number of record.amendedBy) {
    const amender = byNumber.get(number);
    if (!amender) failures.push([record.name, `amended by ${number}, which does not exist`]);
    else if (!amender.amends.includes(record.number))
      failures.push([
        amender.name,
        `named in ${record.name}'s "Amended by:" but has no "Amends: ${record.number}" line`,
      ]);
  }
}

for (const [name, reason] of failures) console.error(`${DIRECTORY}/${name}: ${reason}`);
if (failures.length > 0) {
  console.error(
    `${failures.length} problem(s) in the decision records. A record keeps its decision, its why and what was ` +
      `given up in at most ${MAX_WORDS} words; see docs/decisions/000-template.md.`,
  );
  process.exit(1);
}
console.log(`${records.length} decision records: each has a status, at most ${MAX_WORDS} words, amendments both ways.`);
