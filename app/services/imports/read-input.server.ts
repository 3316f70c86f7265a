import { readCapped } from "#app/services/outside-web.server.ts";
import type { ImportContainer } from "./import-result.ts";

/**
 * What a person hands to Import: a file (a badge image, a JSON credential, a JWT) or a pasted text
 * (JSON, a JWT or JWS, or an https address). Read here into the credential it carries, without
 * fetching anything: at most IMPORT_MAX_BYTES, a PNG walked chunk by chunk (its `iTXt` chunk
 * `openbadges`, compressed or not, inflated within the cap), an SVG searched for its
 * `openbadges:assertion` (or `openbadges:credential`) element. The credential itself (a JSON or
 * JWT file, a paste, or the text baked into an image) is at most CREDENTIAL_MAX_BYTES, as /verify
 * takes it (issue 43): only an image may be larger, and only by its picture.
 */

export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** A credential's own text, as /verify takes it. */
export const CREDENTIAL_MAX_BYTES = 256 * 1024;

export type ImportSource =
  { kind: "file"; bytes: Uint8Array; fileName?: string; contentType?: string } | { kind: "text"; text: string };

/** A credential as JSON, a compact JWS/JWT, or the https address of a hosted one. */
export type Carried =
  { kind: "json"; value: Record<string, unknown> } | { kind: "compact"; token: string } | { kind: "url"; url: string };

export type ReadOutcome = { carried: Carried; container: ImportContainer } | { refused: string };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
export const TOO_LARGE = "The file is larger than 5 MB; a badge or credential is far smaller.";
export const CREDENTIAL_TOO_LARGE =
  "The credential is larger than 256 KB; a badge or credential is far smaller, so this one cannot be read.";
const byteLength = (text: string) => new TextEncoder().encode(text).byteLength;
const UNREADABLE =
  "This is not a badge or credential this app can read: upload an Open Badges image (PNG or SVG), " +
  "a JSON credential or a JWT, or paste its JSON or address.";

export async function readImport(source: ImportSource): Promise<ReadOutcome> {
  if (source.kind === "text") {
    const size = byteLength(source.text);
    if (size > IMPORT_MAX_BYTES) return { refused: TOO_LARGE };
    if (size > CREDENTIAL_MAX_BYTES) return { refused: CREDENTIAL_TOO_LARGE };
    return readText(source.text);
  }
  const { bytes } = source;
  if (bytes.byteLength > IMPORT_MAX_BYTES) return { refused: TOO_LARGE };
  if (bytes.byteLength === 0) return { refused: "The file is empty." };
  if (PNG_SIGNATURE.every((byte, index) => bytes[index] === byte)) return readPng(bytes);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { refused: UNREADABLE };
  }
  if (startsAsSvg(text)) return readSvg(text);
  return bytes.byteLength > CREDENTIAL_MAX_BYTES ? { refused: CREDENTIAL_TOO_LARGE } : readText(text);
}

/**
 * Whether the text is an SVG document: `<svg` after what may come before it (a byte-order mark,
 * whitespace, an XML declaration, comments, a doctype). Each is skipped with `indexOf`, so the
 * time is linear in the text whatever it holds: a backtracking pattern took hours on 281 bytes
 * of empty comments (issue 43).
 */
function startsAsSvg(text: string) {
  let at = text.startsWith("\uFEFF") ? 1 : 0;
  const skipSpace = () => {
    while (at < text.length && /\s/.test(text[at]!)) at++;
  };
  const startsHere = (prefix: string) => text.slice(at, at + prefix.length).toLowerCase() === prefix;
  /** Moves past the next `end`; false when there is none. */
  const skipPast = (end: string) => {
    const found = text.indexOf(end, at);
    if (found < 0) return false;
    at = found + end.length;
    return true;
  };
  skipSpace();
  if (startsHere("<?xml") && !skipPast("?>")) return false;
  skipSpace();
  while (startsHere("<!--")) {
    at += 4;
    if (!skipPast("-->")) return false;
    skipSpace();
  }
  if (startsHere("<!doctype") && !skipPast(">")) return false;
  skipSpace();
  return startsHere("<svg") && /[\s>]/.test(text[at + 4] ?? "");
}

function readText(raw: string): ReadOutcome {
  const text = raw.trim().replace(/^\uFEFF/, "");
  if (!text) return { refused: "Nothing was pasted." };
  const carried = carriedIn(text);
  if (!carried) return { refused: UNREADABLE };
  const container: ImportContainer = carried.kind === "json" ? "JSON" : carried.kind === "compact" ? "JWT" : "URL";
  return { carried, container };
}

/** The credential a text is: JSON object, compact JWS, or https URL; null for anything else. */
function carriedIn(text: string): Carried | null {
  if (text.startsWith("{")) {
    try {
      const value = JSON.parse(text) as unknown;
      return value && typeof value === "object" && !Array.isArray(value)
        ? { kind: "json", value: value as Record<string, unknown> }
        : null;
    } catch {
      return null;
    }
  }
  if (COMPACT.test(text)) return { kind: "compact", token: text };
  if (/^https:\/\/\S+$/i.test(text)) {
    try {
      return { kind: "url", url: new URL(text).href };
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * The `openbadges` text of a PNG (iTXt as Open Badges 2.0 and 3.0 bake it; tEXt as 1.0 did), read
 * chunk by chunk up to the image data's end.
 */
async function readPng(bytes: Uint8Array): Promise<ReadOutcome> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const latin1 = new TextDecoder("latin1");
  let offset = 8;
  while (offset + 12 <= bytes.byteLength) {
    const length = view.getUint32(offset);
    const type = latin1.decode(bytes.subarray(offset + 4, offset + 8));
    const start = offset + 8;
    const end = start + length;
    if (end + 4 > bytes.byteLength) break;
    const data = bytes.subarray(start, end);
    if (type === "iTXt" || type === "tEXt") {
      const text = await chunkText(type, data);
      if (text !== undefined) {
        if (text === TOO_MUCH) return { refused: CREDENTIAL_TOO_LARGE };
        if (text === null) return { refused: "The image's badge data cannot be read." };
        const carried = carriedIn(text.trim());
        return carried ? { carried, container: "PNG" } : { refused: "The image's badge data is not a credential." };
      }
    }
    if (type === "IEND") break;
    offset = end + 4;
  }
  return { refused: "This image carries no Open Badges data (no 'openbadges' chunk): it is not a baked badge." };
}

const TOO_MUCH = Symbol("over CREDENTIAL_MAX_BYTES");

/**
 * The text of an `openbadges` chunk, null when it cannot be read, undefined for another keyword,
 * TOO_MUCH when it holds (or inflates to) more than a credential may.
 */
async function chunkText(type: string, data: Uint8Array): Promise<string | null | undefined | typeof TOO_MUCH> {
  const keywordEnd = data.indexOf(0);
  if (keywordEnd < 0 || new TextDecoder("latin1").decode(data.subarray(0, keywordEnd)) !== "openbadges") {
    return undefined;
  }
  if (type === "tEXt") {
    const body = data.subarray(keywordEnd + 1);
    return body.byteLength > CREDENTIAL_MAX_BYTES ? TOO_MUCH : new TextDecoder("latin1").decode(body);
  }
  const compressed = data[keywordEnd + 1] === 1;
  // Past the flag and method: a language tag and a translated keyword, each ended by a zero byte.
  const languageEnd = data.indexOf(0, keywordEnd + 3);
  const translatedEnd = languageEnd < 0 ? -1 : data.indexOf(0, languageEnd + 1);
  if (translatedEnd < 0) return null;
  const body = data.subarray(translatedEnd + 1);
  if (!compressed && body.byteLength > CREDENTIAL_MAX_BYTES) return TOO_MUCH;
  try {
    const text = compressed
      ? await readCapped(
          new Blob([Uint8Array.from(body)]).stream().pipeThrough(new DecompressionStream("deflate")),
          CREDENTIAL_MAX_BYTES,
        )
      : body;
    if (text === null) return TOO_MUCH;
    return new TextDecoder("utf-8", { fatal: true }).decode(text);
  } catch {
    return null;
  }
}

const XML_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const unescapeXml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, name: string) =>
    name.startsWith("#x") || name.startsWith("#X")
      ? String.fromCodePoint(parseInt(name.slice(2), 16))
      : name.startsWith("#")
        ? String.fromCodePoint(Number(name.slice(1)))
        : (XML_ENTITIES[name.toLowerCase()] ?? ""),
  );

/**
 * The first `openbadges:assertion` or `openbadges:credential` element that is whole: its start
 * tag's attributes and its content ("" when self-closed). Every search runs forward from where
 * the last one stopped, and a name found unclosed once is never searched for again, so the time
 * is linear in the text: a pattern that tried each start tag to the end of the file grew as the
 * square of a file of unclosed elements (issue 43).
 */
function badgeElement(text: string): { attributes: string; content: string } | null {
  const starts = /<openbadges:(assertion|credential)\b/gi;
  const unclosed = new Set<string>();
  for (let start = starts.exec(text); start; start = starts.exec(text)) {
    const name = start[1]!.toLowerCase();
    if (unclosed.has(name)) continue;
    const tagEnd = text.indexOf(">", starts.lastIndex);
    if (tagEnd < 0) return null;
    if (text[tagEnd - 1] === "/") return { attributes: text.slice(starts.lastIndex, tagEnd - 1), content: "" };
    const end = new RegExp(`</openbadges:${name}\\s*>`, "gi");
    end.lastIndex = tagEnd + 1;
    const close = end.exec(text);
    if (!close) {
      unclosed.add(name);
      continue;
    }
    return { attributes: text.slice(starts.lastIndex, tagEnd), content: text.slice(tagEnd + 1, close.index) };
  }
  return null;
}

/**
 * An SVG's baked badge: the `openbadges:assertion` (2.0) or `openbadges:credential` (3.0)
 * element's content (JSON, in CDATA or escaped), else its `verify` attribute (a JWS or address).
 */
function readSvg(text: string): ReadOutcome {
  const element = badgeElement(text);
  if (!element) {
    return { refused: "This image carries no Open Badges data (no openbadges:assertion): it is not a baked badge." };
  }
  const { attributes, content } = element;
  const cdata = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(content);
  const body = (cdata ? cdata[1]! : unescapeXml(content)).trim();
  const verify = /\bverify\s*=\s*("([^"]*)"|'([^']*)')/.exec(attributes);
  const candidate = body || unescapeXml(verify?.[2] ?? verify?.[3] ?? "").trim();
  if (byteLength(candidate) > CREDENTIAL_MAX_BYTES) return { refused: CREDENTIAL_TOO_LARGE };
  const carried = candidate ? carriedIn(candidate) : null;
  return carried ? { carried, container: "SVG" } : { refused: "The image's badge data is not a credential." };
}
