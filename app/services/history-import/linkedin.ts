import Papa from "papaparse";
import { historyDate } from "./dates.ts";
import { describe, type HistoryProposal } from "./types.ts";

// LinkedIn's data export ("Get a copy of your data"): a ZIP of CSV files. Five of them hold a
// career: positions, certifications, honours, courses and education. Each file is known by its
// header (a renamed file is still read); notes lines above the header are skipped, quoted fields
// may span lines.

type Row = Record<string, string>;

type LinkedInFile = {
  name: string;
  /** The columns that identify the file's header row. */
  header: string[];
  read: (row: Row) => Omit<HistoryProposal, "source"> | null;
};

/** The end when there is one that has passed, else the start: a degree is dated by its award. */
const endOrStart = (row: Row, end: string, start: string) => {
  const finished = historyDate(row[end]);
  return finished && finished <= new Date().toISOString().slice(0, 10) ? finished : (historyDate(row[start]) ?? "");
};

export const LINKEDIN_FILES: LinkedInFile[] = [
  {
    name: "Positions.csv",
    header: ["Company Name", "Title"],
    read: (row) => ({
      type: "milestone",
      title: row["Title"] ?? "",
      company: row["Company Name"] ?? "",
      description: describe(row["Description"]),
      date: historyDate(row["Started On"]) ?? "",
    }),
  },
  {
    name: "Certifications.csv",
    header: ["Name", "Authority"],
    read: (row) => ({
      type: "training",
      title: row["Name"] ?? "",
      company: row["Authority"] ?? "",
      description: describe(row["License Number"] ? `License number: ${row["License Number"]}` : ""),
      date: historyDate(row["Started On"]) ?? historyDate(row["Finished On"]) ?? "",
    }),
  },
  {
    name: "Honors.csv",
    header: ["Title", "Issued On"],
    // LinkedIn's honours carry no issuer: the person names it in the review.
    read: (row) => ({
      type: "award",
      title: row["Title"] ?? "",
      company: row["Issuer"] ?? "",
      description: describe(row["Description"]),
      date: historyDate(row["Issued On"]) ?? "",
    }),
  },
  {
    name: "Courses.csv",
    header: ["Name", "Number"],
    // Nor do courses carry a school or a date.
    read: (row) => ({
      type: "training",
      title: row["Name"] ?? "",
      company: "",
      description: describe(row["Number"] ? `Course number: ${row["Number"]}` : ""),
      date: "",
    }),
  },
  {
    name: "Education.csv",
    header: ["School Name", "Degree Name"],
    read: (row) => ({
      type: "training",
      title: row["Degree Name"] || "Education",
      company: row["School Name"] ?? "",
      description: describe(row["Notes"], row["Activities"] ? [row["Activities"]] : []),
      date: endOrStart(row, "End Date", "Start Date"),
    }),
  },
];

/** A cell as shown: no byte-order mark, no surrounding space, line ends as "\n". */
const clean = (cell: string) =>
  cell
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .trim();

/**
 * The entries of one LinkedIn CSV file, or null when its header is none of the five files'
 * (another file of the export, such as Connections.csv).
 */
export function readLinkedInCsv(text: string): HistoryProposal[] | null {
  const { data } = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { skipEmptyLines: "greedy" });
  for (const [at, cells] of data.entries()) {
    const header = cells.map(clean);
    const file = LINKEDIN_FILES.find((known) => known.header.every((column) => header.includes(column)));
    if (!file) continue;
    return data.slice(at + 1).flatMap((values) => {
      const row: Row = Object.fromEntries(header.map((column, index) => [column, clean(values[index] ?? "")]));
      if (Object.values(row).every((value) => !value)) return [];
      const proposal = file.read(row);
      return proposal ? [{ ...proposal, source: file.name }] : [];
    });
  }
  return null;
}
