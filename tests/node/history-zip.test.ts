import { deflateSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { readHistoryFiles } from "#app/services/history-import/read.ts";

// Issue 43: a ZIP's career files are inflated only up to the size each declares, and 20 MB in all
// counting the bytes actually produced. fflate's unzipSync trusted the declared size: it cut the
// output there (a lying entry read as a few bytes of its start) but inflated the whole stream.

const POSITIONS = "Company Name,Title,Description,Location,Started On,Finished On\nFabrikam,Engineer,,,Jan 2020,\n";
const encode = (text: string) => new TextEncoder().encode(text);

/** A ZIP of these files, with the central directory's uncompressed sizes changed by `declare`. */
function zipDeclaring(files: Record<string, Uint8Array>, declare: (name: string, size: number) => number) {
  const zip = zipSync(files, { level: 9 });
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  for (let at = 0; at + 46 <= zip.length; at++) {
    if (view.getUint32(at, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(at + 28, true);
    const name = new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength));
    view.setUint32(at + 24, declare(name, view.getUint32(at + 24, true)), true);
  }
  return zip;
}

const read = (bytes: Uint8Array) => () => readHistoryFiles([{ name: "export.zip", bytes }]);

describe("a LinkedIn ZIP is unpacked within what it declares", () => {
  it("reads an honest export", () => {
    const zip = zipSync({ "Positions.csv": encode(POSITIONS), "Other.csv": encode("x") });
    expect(read(zip)()).toMatchObject([{ title: "Engineer", company: "Fabrikam" }]);
  });

  it("refuses an entry that inflates past its declared size, without inflating the rest", () => {
    // 30 MB of one row repeated, declared as the size of one row: the old reader returned that row.
    const bomb = encode(POSITIONS + "Fabrikam,Engineer,,,Jan 2020,\n".repeat(1_000_000));
    const zip = zipDeclaring({ "Positions.csv": bomb }, () => POSITIONS.length);
    expect(read(zip)).toThrow("export.zip is not a ZIP file that can be opened.");
  });

  it("refuses an archive whose career files declare more than 20 MB in all", () => {
    const zip = zipDeclaring({ "Positions.csv": encode(POSITIONS), "Education.csv": encode("x") }, () => 11 << 20);
    expect(read(zip)).toThrow("This ZIP unpacks to more than 20 MB.");
  });

  it("counts the 20 MB across the ZIPs of one upload, by the bytes produced", () => {
    const big = new Uint8Array(15 << 20).fill(0x20);
    big.set(encode(POSITIONS));
    const zip = zipSync({ "Positions.csv": big });
    expect(deflateSync(big).length).toBeLessThan(5 << 20);
    const files = [
      { name: "a.zip", bytes: zip },
      { name: "b.zip", bytes: zip },
    ];
    expect(() => readHistoryFiles(files)).toThrow("This ZIP unpacks to more than 20 MB.");
  });
});
