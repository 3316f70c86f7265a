// What an uploaded file really is, from its own bytes: never from its name or the browser's
// claim, so an HTML or SVG file renamed .png (or .mp4) is refused. Videos also carry their
// duration in the container header, read here while the file streams past.

export type MediaType = { kind: "image" | "video"; ext: string; mime: string };

/** Enough leading bytes to tell every accepted format apart. */
export const SNIFF_BYTES = 64;

const ascii = (bytes: Uint8Array, start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));
const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((byte, i) => bytes[i] === byte);

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const EBML_MAGIC = [0x1a, 0x45, 0xdf, 0xa3];
// QuickTime files written before the ftyp box existed start with one of these.
const QUICKTIME_FIRST_BOXES = ["moov", "mdat", "wide", "free", "skip"];

export function sniffMedia(head: Uint8Array): MediaType | null {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { kind: "image", ext: "jpg", mime: "image/jpeg" };
  if (startsWith(head, PNG_SIGNATURE)) return { kind: "image", ext: "png", mime: "image/png" };
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 12) === "WEBP")
    return { kind: "image", ext: "webp", mime: "image/webp" };
  const box = ascii(head, 4, 8);
  if (box === "ftyp") {
    return ascii(head, 8, 12) === "qt  "
      ? { kind: "video", ext: "mov", mime: "video/quicktime" }
      : { kind: "video", ext: "mp4", mime: "video/mp4" };
  }
  if (QUICKTIME_FIRST_BOXES.includes(box)) return { kind: "video", ext: "mov", mime: "video/quicktime" };
  // Matroska shares WebM's magic; only the "webm" DocType in the EBML header is accepted.
  if (startsWith(head, EBML_MAGIC) && ascii(head, 4, head.length).includes("webm")) {
    return { kind: "video", ext: "webm", mime: "video/webm" };
  }
  return null;
}

/**
 * Watches an image's bytes for web-page markup: a "polyglot" file that is a valid JPEG and also
 * an HTML page could be rendered as a page by a careless browser or proxy. Real photos never
 * contain these tags, so any image with them is refused. Chunk borders are covered by a tail.
 */
export class MarkupScanner {
  private static readonly PATTERN = /<(?:script|html|body|svg|iframe|object|embed|!doctype)\b/i;
  private tail = "";
  found = false;

  push(chunk: Uint8Array) {
    if (this.found) return;
    let text = this.tail;
    for (let offset = 0; offset < chunk.length; offset += 8192) {
      text += String.fromCharCode(...chunk.subarray(offset, offset + 8192));
    }
    this.found = MarkupScanner.PATTERN.test(text);
    this.tail = text.slice(-16);
  }
}

// A header reader is a generator that asks for bytes ({ read: n } gets exactly n bytes, or null
// when the file ended cleanly right there) or to pass over bytes ({ skip: n }), and says what it
// found as soon as it knows ({ found }). The probe below drives it from the upload stream, so a
// file is never held in memory to be measured. When the file ends in the middle of a request,
// the file is truncated and the result is null.
type Want<T> = { read: number } | { skip: number } | { found: T };
type HeaderReader<T> = Generator<Want<T>, T | null, Uint8Array | null>;
type DurationReader = HeaderReader<number>;

function* read(n: number): Generator<Want<never>, Uint8Array | null, Uint8Array | null> {
  return yield { read: n };
}
function* skip(n: number): Generator<Want<never>, void, Uint8Array | null> {
  if (n > 0) yield { skip: n };
}

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * MP4/MOV: walks the top-level boxes to the end of the file (passing over the media data), takes
 * the duration from moov/mvhd wherever it sits, and checks that the last box ends exactly where
 * the file does, so a cut-off upload is caught.
 */
function* mp4Duration(): DurationReader {
  let position = 0;
  let moovEnd = -1;
  let duration: number | null = null;
  for (;;) {
    const header = yield* read(8);
    if (!header) return duration;
    const start = position;
    position += 8;
    let size = view(header).getUint32(0);
    const type = ascii(header, 4, 8);
    let headerSize = 8;
    if (size === 1) {
      const large = yield* read(8);
      if (!large) return null;
      size = Number(view(large).getBigUint64(0));
      headerSize = 16;
      position += 8;
    } else if (size === 0) {
      // A box that runs to the end of the file: its end cannot be checked, the duration stands.
      return duration;
    }
    if (size < headerSize) return null;
    if (type === "moov") {
      // Step into the movie box: its children (mvhd first) follow as boxes of their own.
      moovEnd = start + size;
      continue;
    }
    let bodyRead = 0;
    if (type === "mvhd" && position < moovEnd) {
      const body = yield* read(Math.min(size - headerSize, 32));
      if (!body || body.length < 20) return null;
      bodyRead = body.length;
      const version = body[0];
      const fields = view(body);
      const timescale = fields.getUint32(version === 1 ? 20 : 12);
      const units = version === 1 ? (body.length >= 32 ? Number(fields.getBigUint64(24)) : 0) : fields.getUint32(16);
      // Fragmented files leave the movie duration at zero: their length is not in the header.
      if (timescale > 0 && units > 0) {
        duration = units / timescale;
        yield { found: duration };
      }
    }
    yield* skip(size - headerSize - bodyRead);
    position = start + size;
  }
}

const EBML = {
  header: 0x1a45dfa3,
  segment: 0x18538067,
  info: 0x1549a966,
  cluster: 0x1f43b675,
  timecodeScale: 0x2ad7b1,
  duration: 0x4489,
};
const MAX_INFO_BYTES = 64 * 1024;

/**
 * An EBML variable-length integer at `offset`: its length is told by the leading zero bits of
 * the first byte. An element ID keeps that length marker; a size drops it (all ones: unknown).
 */
function decodeVint(bytes: Uint8Array, offset: number, keepMarker: boolean) {
  const first = bytes[offset] ?? 0;
  const length = Math.clz32(first) - 23;
  if (length < 1 || length > 8 || offset + length > bytes.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (const byte of bytes.subarray(offset + 1, offset + length)) {
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  return { value, unknown: !keepMarker && allOnes, length };
}

function* vint(keepMarker: boolean): Generator<Want<never>, ReturnType<typeof decodeVint>, Uint8Array | null> {
  const first = yield* read(1);
  const length = first ? Math.clz32(first[0] ?? 0) - 23 : 0;
  if (!first || length < 1 || length > 8) return null;
  const rest = length > 1 ? yield* read(length - 1) : new Uint8Array(0);
  return rest ? decodeVint(concat([first, rest]), 0, keepMarker) : null;
}

/** The child elements of an in-memory EBML body (the Info element), by ID. */
function ebmlChildren(body: Uint8Array) {
  const children = new Map<number, Uint8Array>();
  let offset = 0;
  while (offset < body.length) {
    const id = decodeVint(body, offset, true);
    const size = id && decodeVint(body, offset + id.length, false);
    if (!id || !size) break;
    offset += id.length + size.length;
    if (offset + size.value > body.length) break;
    children.set(id.value, body.subarray(offset, offset + size.value));
    offset += size.value;
  }
  return children;
}

/**
 * WebM: the duration is in Segment/Info (Duration in units of TimecodeScale nanoseconds), which
 * writers put before the first Cluster. When the Segment's size is known, the rest of the file
 * is passed over to check that it is all there.
 */
function* webmDuration(): DurationReader {
  const headerId = yield* vint(true);
  const headerSize = yield* vint(false);
  if (headerId?.value !== EBML.header || !headerSize || headerSize.unknown) return null;
  yield* skip(headerSize.value);
  const segmentId = yield* vint(true);
  const segmentSize = yield* vint(false);
  if (segmentId?.value !== EBML.segment || !segmentSize) return null;
  let remaining = segmentSize.unknown ? Infinity : segmentSize.value;
  for (;;) {
    const id = yield* vint(true);
    const size = yield* vint(false);
    if (!id || !size || size.unknown || id.value === EBML.cluster) return null;
    remaining -= id.length + size.length + size.value;
    if (id.value !== EBML.info) {
      yield* skip(size.value);
      continue;
    }
    if (size.value > MAX_INFO_BYTES) return null;
    const body = yield* read(size.value);
    if (!body) return null;
    const children = ebmlChildren(body);
    const scaleBytes = children.get(EBML.timecodeScale);
    const scale = scaleBytes ? scaleBytes.reduce((value, byte) => value * 256 + byte, 0) : 1_000_000;
    const durationBytes = children.get(EBML.duration);
    if (!durationBytes || (durationBytes.length !== 4 && durationBytes.length !== 8)) return null;
    const units = durationBytes.length === 4 ? view(durationBytes).getFloat32(0) : view(durationBytes).getFloat64(0);
    if (!(units > 0)) return null;
    const duration = (units * scale) / 1e9;
    yield { found: duration };
    if (Number.isFinite(remaining)) yield* skip(remaining);
    return duration;
  }
}

/**
 * Feeds a file's bytes, chunk by chunk, to a header reader. `found` is known as soon as the
 * header has passed (so an over-long video or an over-large picture is refused early); `end()`
 * returns the checked result, or null when it cannot be read or the file is cut short.
 */
class HeaderProbe<T> {
  private want: Want<T> | null;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private result: T | null | undefined;
  found: T | null = null;

  constructor(private readonly reader: HeaderReader<T>) {
    this.want = this.advance(null);
  }

  private advance(input: Uint8Array | null): Want<T> | null {
    for (let step = this.reader.next(input); ; step = this.reader.next(null)) {
      if (step.done) {
        this.result = step.value;
        return null;
      }
      if ("found" in step.value) {
        this.found = step.value.found;
        continue;
      }
      return step.value;
    }
  }

  push(chunk: Uint8Array) {
    let offset = 0;
    while (this.want && offset < chunk.length) {
      if ("skip" in this.want) {
        const n = Math.min(this.want.skip, chunk.length - offset);
        offset += n;
        this.want = this.want.skip === n ? this.advance(null) : { skip: this.want.skip - n };
        continue;
      }
      if (!("read" in this.want)) break;
      const n = Math.min(this.want.read - this.pendingBytes, chunk.length - offset);
      this.pending.push(chunk.subarray(offset, offset + n));
      this.pendingBytes += n;
      offset += n;
      if (this.pendingBytes === this.want.read) {
        const bytes = concat(this.pending, this.pendingBytes);
        this.pending = [];
        this.pendingBytes = 0;
        this.want = this.advance(bytes);
      }
    }
  }

  end(): T | null {
    // Ending cleanly is only possible between two reads; anything else is a cut-off file.
    if (this.want && "read" in this.want && this.pendingBytes === 0) this.want = this.advance(null);
    return this.want ? null : (this.result ?? null);
  }
}

/** A video's duration in seconds, from its MP4/MOV or WebM header. */
export class DurationProbe extends HeaderProbe<number> {
  constructor(type: MediaType) {
    super(type.ext === "webm" ? webmDuration() : mp4Duration());
  }

  get duration() {
    return this.found;
  }
}

export type Dimensions = { width: number; height: number };

/**
 * A picture's width and height in pixels, from its header (PNG IHDR, JPEG SOF, WebP VP8/VP8L/VP8X):
 * nothing is decoded. Null when the header cannot be read.
 */
export class DimensionsProbe extends HeaderProbe<Dimensions> {
  constructor(type: MediaType) {
    super(type.ext === "png" ? pngDimensions() : type.ext === "webp" ? webpDimensions() : jpegDimensions());
  }
}

/** The dimensions of a whole picture held in memory (a stored one), or null when unreadable. */
export function imageDimensions(bytes: Uint8Array): Dimensions | null {
  const type = sniffMedia(bytes.subarray(0, SNIFF_BYTES));
  if (type?.kind !== "image") return null;
  const probe = new DimensionsProbe(type);
  probe.push(bytes);
  return probe.found;
}

/** PNG: the signature, then the IHDR chunk, which must come first, with width and height. */
function* pngDimensions(): HeaderReader<Dimensions> {
  const head = yield* read(24);
  if (!head || !startsWith(head, PNG_SIGNATURE) || ascii(head, 12, 16) !== "IHDR") return null;
  const found = { width: view(head).getUint32(16), height: view(head).getUint32(20) };
  if (!found.width || !found.height) return null;
  yield { found };
  return found;
}

/** WebP: the first chunk says which coding the picture uses, and each keeps its size its own way. */
function* webpDimensions(): HeaderReader<Dimensions> {
  const head = yield* read(30);
  if (!head || ascii(head, 0, 4) !== "RIFF" || ascii(head, 8, 12) !== "WEBP") return null;
  const fields = view(head);
  const chunk = ascii(head, 12, 16);
  let found: Dimensions | null = null;
  if (chunk === "VP8 " && head[23] === 0x9d && head[24] === 0x01 && head[25] === 0x2a) {
    // Lossy: a key frame's start code, then 14-bit width and height (2 bits of scale above).
    found = { width: fields.getUint16(26, true) & 0x3fff, height: fields.getUint16(28, true) & 0x3fff };
  } else if (chunk === "VP8L" && head[20] === 0x2f) {
    // Lossless: 14 bits of width - 1, then 14 of height - 1, least significant first.
    const bits = fields.getUint32(21, true);
    found = { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  } else if (chunk === "VP8X") {
    // Extended: the canvas, 24 bits of width - 1 and of height - 1.
    const uint24 = (at: number) => head[at]! | (head[at + 1]! << 8) | (head[at + 2]! << 16);
    found = { width: uint24(24) + 1, height: uint24(27) + 1 };
  }
  if (!found?.width || !found.height) return null;
  yield { found };
  return found;
}

/** JPEG markers that stand alone, without a length: TEM and the restart markers. */
const STANDALONE = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);
/** Start-of-frame markers (every coding but DHT, JPG and DAC, which share the range). */
const START_OF_FRAME = (marker: number) => marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);

/** JPEG: walks the segments (passing over EXIF and the like) to the first start of frame. */
function* jpegDimensions(): HeaderReader<Dimensions> {
  const soi = yield* read(2);
  if (!soi || soi[0] !== 0xff || soi[1] !== 0xd8) return null;
  for (;;) {
    const prefix = yield* read(1);
    if (!prefix || prefix[0] !== 0xff) return null;
    let marker = 0xff;
    // Any number of 0xFF fill bytes may come before a marker.
    while (marker === 0xff) {
      const next = yield* read(1);
      if (!next) return null;
      marker = next[0]!;
    }
    if (STANDALONE(marker)) continue;
    // The end of the picture, or its scan, before any frame: there are no dimensions to read.
    if (marker === 0xd9 || marker === 0xda || marker === 0x00) return null;
    const length = yield* read(2);
    if (!length) return null;
    const size = view(length).getUint16(0);
    if (size < 2) return null;
    if (START_OF_FRAME(marker)) {
      const frame = yield* read(5);
      if (!frame || size < 7) return null;
      const found = { height: view(frame).getUint16(1), width: view(frame).getUint16(3) };
      // A height of zero means "defined later" (a DNL marker): not a size to trust.
      if (!found.width || !found.height) return null;
      yield { found };
      return found;
    }
    yield* skip(size - 2);
  }
}

export function concat(chunks: Uint8Array[], length = chunks.reduce((sum, chunk) => sum + chunk.length, 0)) {
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}
