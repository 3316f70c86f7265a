import { readJsonResume } from "./json-resume.ts";
import { LINKEDIN_FILES, readLinkedInCsv } from "./linkedin.ts";
import { HistoryFileError, type HistoryProposal } from "./types.ts";
import { unzipChosen } from "./zip.ts";

/** What a ZIP's career files may unpack to, in all, counted as they are produced. */
const UNPACKED_MAX_BYTES = 20 * 1024 * 1024;

export type HistoryFile = { name: string; bytes: Uint8Array };

const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
const KNOWN_NAMES = new Set(LINKEDIN_FILES.map((file) => file.name.toLowerCase()));
const baseName = (path: string) => path.slice(path.lastIndexOf("/") + 1).toLowerCase();
const decoder = () => new TextDecoder("utf-8", { fatal: false });

const UNREADABLE =
  "This file is neither a LinkedIn data export (its ZIP, or Positions.csv, Certifications.csv, Honors.csv, " +
  "Courses.csv or Education.csv) nor a JSON Resume.";

/**
 * The entries of the uploaded files: LinkedIn's export ZIP (only its five career files are
 * unpacked, each bounded), its CSV files, or a JSON Resume. A file that is none of them is
 * refused with the reason.
 */
export function readHistoryFiles(files: HistoryFile[]): HistoryProposal[] {
  if (files.length === 0) throw new HistoryFileError("Choose a file to import.");
  // The ZIPs of one upload share the 20 MB.
  const unpacked = { bytes: 0 };
  return files.flatMap((file) => readOne(file, unpacked));
}

function readOne({ name, bytes }: HistoryFile, unpacked: { bytes: number }): HistoryProposal[] {
  if (isZip(bytes)) {
    const left = UNPACKED_MAX_BYTES - unpacked.bytes;
    const entries = unzipChosen(bytes, (path) => KNOWN_NAMES.has(baseName(path)), left, {
      tooLarge: "This ZIP unpacks to more than 20 MB.",
      unreadable: `${name} is not a ZIP file that can be opened.`,
    });
    for (const content of Object.values(entries)) unpacked.bytes += content.byteLength;
    // In the order of LINKEDIN_FILES (positions first), whatever the archive's order.
    const texts = Object.entries(entries)
      .sort(([a], [b]) => order(a) - order(b))
      .map(([, content]) => decoder().decode(content));
    const proposals = texts.flatMap((text) => readLinkedInCsv(text) ?? []);
    if (texts.length === 0) throw new HistoryFileError(`${name} holds none of LinkedIn's career files.`);
    return proposals;
  }
  const text = decoder()
    .decode(bytes)
    .replace(/^\uFEFF/, "");
  if (/^\s*[[{]/.test(text)) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new HistoryFileError(`${name} is not valid JSON.`);
    }
    return readJsonResume(json);
  }
  const proposals = readLinkedInCsv(text);
  if (!proposals) throw new HistoryFileError(UNREADABLE);
  return proposals;
}

const order = (path: string) => LINKEDIN_FILES.findIndex((file) => file.name.toLowerCase() === baseName(path));
