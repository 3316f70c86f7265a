import { zipSync, strToU8 } from "fflate";
import positions from "../fixtures/linkedin/Positions.csv?raw";
import certifications from "../fixtures/linkedin/Certifications.csv?raw";
import honors from "../fixtures/linkedin/Honors.csv?raw";
import courses from "../fixtures/linkedin/Courses.csv?raw";
import education from "../fixtures/linkedin/Education.csv?raw";
import sampleResume from "../fixtures/json-resume/sample.resume.json";
import { postForm, postMultipart } from "./helpers.ts";

// 'Import history' as a browser without JavaScript drives it: upload a file, read the review
// list the page renders, post it back as its form would be posted.

export const PATH = "/passport/import-history";

export const LINKEDIN_CSV = {
  "Positions.csv": positions,
  "Certifications.csv": certifications,
  "Honors.csv": honors,
  "Courses.csv": courses,
  "Education.csv": education,
};

/** LinkedIn's export as it is mailed: a ZIP with the career files among others, in a folder. */
export function linkedInZip(files: Record<string, string> = LINKEDIN_CSV) {
  const entries: Record<string, Uint8Array> = {
    "Basic_LinkedInDataExport_01-01-2026/Connections.csv": strToU8("Notes:\nFirst Name,Last Name\nAda,Lovelace\n"),
  };
  for (const [name, text] of Object.entries(files))
    entries[`Basic_LinkedInDataExport_01-01-2026/${name}`] = strToU8(text);
  return new File([zipSync(entries)], "Basic_LinkedInDataExport_01-01-2026.zip", { type: "application/zip" });
}

export const jsonResumeFile = (resume: unknown = sampleResume) =>
  new File([JSON.stringify(resume)], "resume.json", { type: "application/json" });

export const csvFile = (name: string, text: string) => new File([text], name, { type: "text/csv" });

export type ReviewEntry = {
  index: number;
  key: string;
  source: string;
  title: string;
  company: string;
  date: string;
  type: string;
  description: string;
  selected: boolean;
  alreadyAdded: boolean;
  problem: string | null;
};

/** Uploads files as the 'Read file' form sends them. */
export function readHistory(cookie: string, files: File[], fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append("file", file);
  form.append("intent", "read-history");
  return postMultipart(PATH, form, { cookie });
}

/** The review list a page shows, read from its HTML as a browser would see its form. */
export async function reviewOf(response: Response): Promise<ReviewEntry[]> {
  const entries = new Map<number, ReviewEntry>();
  const entry = (index: number) => {
    let found = entries.get(index);
    if (!found) {
      found = {
        index,
        key: "",
        source: "",
        title: "",
        company: "",
        date: "",
        type: "",
        description: "",
        selected: false,
        alreadyAdded: false,
        problem: null,
      };
      entries.set(index, found);
    }
    return found;
  };
  const field = (name: string | null) => name?.match(/^entries\[(\d+)\]\.(\w+)$/) ?? null;
  let textarea: ReviewEntry | null = null;
  let problem: ReviewEntry | null = null;
  let select: ReviewEntry | null = null;
  await new HTMLRewriter()
    .on("input", {
      element(element) {
        const match = field(element.getAttribute("name"));
        if (!match) return;
        const target = entry(Number(match[1]));
        const name = match[2]!;
        if (name === "selected") target.selected = element.hasAttribute("checked");
        else if (name === "alreadyAdded") target.alreadyAdded = true;
        else (target as Record<string, unknown>)[name] = decode(element.getAttribute("value") ?? "");
      },
    })
    .on("textarea", {
      element(element) {
        const match = field(element.getAttribute("name"));
        textarea = match ? entry(Number(match[1])) : null;
      },
      text(chunk) {
        if (textarea) textarea.description += decode(chunk.text);
      },
    })
    .on("select", {
      element(element) {
        const match = field(element.getAttribute("name"));
        select = match ? entry(Number(match[1])) : null;
      },
    })
    .on("option[selected]", {
      element(element) {
        if (select) select.type = element.getAttribute("value") ?? "";
      },
    })
    .on('p[id$="-problem"]', {
      element(element) {
        const match = element.getAttribute("id")?.match(/^entry-(\d+)-problem$/);
        problem = match ? entry(Number(match[1])) : null;
        if (problem) problem.problem = "";
      },
      text(chunk) {
        if (problem) problem.problem += decode(chunk.text);
      },
    })
    .transform(response)
    .arrayBuffer();
  return [...entries.values()].sort((a, b) => a.index - b.index);
}

const decode = (html: string) =>
  html
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");

/** Posts the review list back as its form does: every field, a checkbox only when ticked. */
export function addHistory(cookie: string, entries: ReviewEntry[], extra: Record<string, string> = {}) {
  const fields = new URLSearchParams();
  entries.forEach((item, index) => {
    const name = (field: string) => `entries[${index}].${field}`;
    fields.append(name("key"), item.key);
    fields.append(name("source"), item.source);
    if (item.alreadyAdded) fields.append(name("alreadyAdded"), "true");
    if (item.selected && !item.alreadyAdded) fields.append(name("selected"), "on");
    fields.append(name("title"), item.title);
    fields.append(name("company"), item.company);
    fields.append(name("date"), item.date);
    fields.append(name("type"), item.type);
    fields.append(name("description"), item.description);
  });
  for (const [name, value] of Object.entries(extra)) fields.append(name, value);
  fields.append("intent", "add-history");
  // Every name is posted once, so the fields fit a record.
  return postForm(PATH, Object.fromEntries(fields), { cookie });
}
