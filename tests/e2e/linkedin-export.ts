import { readFileSync } from "node:fs";
import { strToU8, zipSync } from "fflate";

const LINKEDIN_FILES = ["Positions.csv", "Certifications.csv", "Honors.csv", "Courses.csv", "Education.csv"];

/** LinkedIn's export as it is mailed: a ZIP of the career files (tests/fixtures/linkedin) in a folder. */
export function linkedInExport() {
  const entries: Record<string, Uint8Array> = {};
  for (const name of LINKEDIN_FILES)
    entries[`Basic_LinkedInDataExport/${name}`] = strToU8(readFileSync(`tests/fixtures/linkedin/${name}`, "utf8"));
  return { name: "Basic_LinkedInDataExport.zip", mimeType: "application/zip", buffer: Buffer.from(zipSync(entries)) };
}
