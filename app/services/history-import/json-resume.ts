import { Validator } from "@cfworker/json-schema";
import resumeSchema from "@jsonresume/schema/schema.json";
import { historyDate } from "./dates.ts";
import { describe, HistoryFileError, type HistoryProposal } from "./types.ts";

// A JSON Resume (jsonresume.org), checked against the schema project's own JSON Schema, then
// read section by section: work and volunteering as milestones, education and certificates as
// training, awards as awards (decision 067).

// Compiled once per isolate; @cfworker/json-schema needs no eval (Workers forbid it).
let compiled: Validator | undefined;
const validator = () => (compiled ??= new Validator(resumeSchema as object, "7", false));

type Text = string | undefined;
type Dated = { startDate?: Text; endDate?: Text; date?: Text };
type Resume = {
  work?: ({ name?: Text; company?: Text; position?: Text; summary?: Text; highlights?: Text[] } & Dated)[];
  volunteer?: ({ organization?: Text; position?: Text; summary?: Text; highlights?: Text[] } & Dated)[];
  education?: ({ institution?: Text; area?: Text; studyType?: Text; score?: Text; courses?: Text[] } & Dated)[];
  awards?: ({ title?: Text; awarder?: Text; summary?: Text } & Dated)[];
  certificates?: ({ name?: Text; issuer?: Text; url?: Text } & Dated)[];
};

const today = () => new Date().toISOString().slice(0, 10);
const dateOf = (text: Text) => historyDate(text) ?? "";
/** A course of study is dated by its end once that has passed, else by its start. */
const endOrStart = ({ startDate, endDate }: Dated) => {
  const end = historyDate(endDate);
  return end && end <= today() ? end : dateOf(startDate);
};
const text = (value: Text) => value?.trim() ?? "";

/** The entries of a JSON Resume; a document the schema refuses is refused with its first error. */
export function readJsonResume(json: unknown): HistoryProposal[] {
  const result = validator().validate(json);
  if (!result.valid || typeof json !== "object" || json === null || Array.isArray(json)) {
    // The deepest error names the field; the first ones only say which keyword failed above it.
    const error = result.errors.at(-1);
    const where = error?.instanceLocation.replace(/^#\/?/, "") || "the document";
    throw new HistoryFileError(`This file is not a valid JSON Resume (${where}: ${error?.error ?? "not an object"}).`);
  }
  const resume = json as Resume;
  return [
    ...(resume.work ?? []).map((job) => ({
      source: "work",
      type: "milestone" as const,
      title: text(job.position),
      company: text(job.name ?? job.company),
      description: describe(job.summary, job.highlights),
      date: dateOf(job.startDate),
    })),
    ...(resume.volunteer ?? []).map((role) => ({
      source: "volunteer",
      type: "milestone" as const,
      title: text(role.position),
      company: text(role.organization),
      description: describe(role.summary, role.highlights),
      date: dateOf(role.startDate),
    })),
    ...(resume.education ?? []).map((study) => ({
      source: "education",
      type: "training" as const,
      title: [text(study.studyType), text(study.area)].filter(Boolean).join(", ") || "Education",
      company: text(study.institution),
      description: describe(study.score ? `Score: ${study.score}` : "", study.courses),
      date: endOrStart(study),
    })),
    ...(resume.awards ?? []).map((award) => ({
      source: "awards",
      type: "award" as const,
      title: text(award.title),
      company: text(award.awarder),
      description: describe(award.summary),
      date: dateOf(award.date),
    })),
    ...(resume.certificates ?? []).map((certificate) => ({
      source: "certificates",
      type: "training" as const,
      title: text(certificate.name),
      company: text(certificate.issuer),
      description: describe(certificate.url),
      date: dateOf(certificate.date),
    })),
  ];
}
