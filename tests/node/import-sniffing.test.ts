import { describe, expect, it } from "vitest";
import { readImport } from "#app/services/imports/read-input.server.ts";

// Issue 43: the import's format sniffing and its search for a baked SVG's badge take time in
// proportion to the file, whatever it holds. A backtracking pattern once took 15 s on 241 bytes of
// empty comments (and hours on 281), and a long run of unclosed badge elements grew as the square
// of the file. Each hostile file here is read in well under a second.
const file = (text: string) => ({ kind: "file" as const, bytes: new TextEncoder().encode(text) });
const CREDENTIAL = { "@context": ["https://www.w3.org/ns/credentials/v2"], type: ["VerifiableCredential"] };

async function timed(text: string) {
  const started = performance.now();
  const outcome = await readImport(file(text));
  return { outcome, ms: performance.now() - started };
}

describe("hostile files are read in linear time", () => {
  it.each([
    ["40 empty comments, then not an SVG (281 bytes)", `${"<!---->".repeat(40)}x`],
    ["200,000 empty comments, then not an SVG", `${"<!---->".repeat(200_000)}x`],
    ["a comment never closed", `<!--${" -- ".repeat(500_000)}`],
    ["an XML declaration never closed", `<?xml ${"a".repeat(1_000_000)}`],
    ["unclosed badge elements, 1 MB", `<svg>${"<openbadges:assertion>".repeat(45_000)}`],
    [
      "unclosed credential elements after an assertion",
      `<svg><openbadges:assertion>${"<openbadges:credential>".repeat(45_000)}`,
    ],
    ["start tags never ended", `<svg>${"<openbadges:assertion ".repeat(45_000)}`],
    [
      "CDATA markers with text after them",
      `<svg><openbadges:assertion><![CDATA[${"]]>x".repeat(250_000)}</openbadges:assertion>`,
    ],
  ])("%s", async (_, text) => {
    const { outcome, ms } = await timed(text);
    expect(outcome).toHaveProperty("refused");
    expect(ms).toBeLessThan(1_000);
  });
});

describe("what is recognised as an SVG", () => {
  const baked = (before: string) =>
    `${before}<svg xmlns="http://www.w3.org/2000/svg"><openbadges:credential><![CDATA[${JSON.stringify(CREDENTIAL)}]]></openbadges:credential></svg>`;

  it.each([
    ["nothing before it", ""],
    ["a byte-order mark and whitespace", "\uFEFF \n\t"],
    ["an XML declaration", '<?xml version="1.0" encoding="UTF-8"?>\n'],
    ["comments", "<!-- made by a badge designer --><!---->\n<!-- a > inside -->"],
    ["a doctype", '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">'],
  ])("%s", async (_, before) => {
    expect(await readImport(file(baked(before)))).toEqual({
      carried: { kind: "json", value: CREDENTIAL },
      container: "SVG",
    });
  });

  it("all of them, in upper case", async () => {
    const text = baked('\uFEFF<?XML VERSION="1.0"?><!-- x --><!doctype SVG>').replace("<svg", "<SVG");
    expect(await readImport(file(text))).toEqual({ carried: { kind: "json", value: CREDENTIAL }, container: "SVG" });
  });

  it("an assertion self-closed with its verify address, and escaped JSON in a later element", async () => {
    const jws = "eyJhbGciOiJFZERTQSJ9.eyJpc3MiOiJ4In0.c2ln";
    expect(await readImport(file(`<svg><openbadges:assertion verify="${jws}"/></svg>`))).toEqual({
      carried: { kind: "compact", token: jws },
      container: "SVG",
    });
    const escaped = JSON.stringify(CREDENTIAL).replace(/"/g, "&quot;");
    expect(
      await readImport(
        file(`<svg><openbadges:assertion><openbadges:credential>${escaped}</openbadges:credential></svg>`),
      ),
    ).toEqual({ carried: { kind: "json", value: CREDENTIAL }, container: "SVG" });
  });

  it("text that only mentions <svg later is read as text, and refused", async () => {
    expect(await readImport(file(`hello <svg></svg>`))).toHaveProperty("refused");
    expect(await readImport(file(`<svgx>`))).toHaveProperty("refused");
  });
});
