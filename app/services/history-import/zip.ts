import { Inflate } from "fflate";
import { HistoryFileError } from "./types.ts";

// A ZIP's chosen files, read from its central directory and inflated with the output counted as it
// is produced (issue 43): each entry only up to the size its directory declares, and all of them
// together up to `maxTotal`. A declared size is a claim, not a bound: fflate's `unzipSync` cut the
// output at it but inflated the whole stream all the same, so a few MB of deflate bomb declaring
// one byte cost seconds of CPU. Here the inflating stops at the first byte too many.

/** How much compressed input is inflated at a time: its output is at most ~1 MB (deflate's 1032:1). */
const STEP = 1024;

const u16 = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8);
const u32 = (bytes: Uint8Array, at: number) => (u16(bytes, at) | (u16(bytes, at + 2) << 16)) >>> 0;

type Entry = { name: string; method: number; compressedSize: number; size: number; dataStart: number };

/** The central directory's entries, or null when the archive cannot be read as a (non-ZIP64) ZIP. */
function directory(bytes: Uint8Array): Entry[] | null {
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (u32(bytes, at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) return null;
  const count = u16(bytes, end + 10);
  let at = u32(bytes, end + 16);
  const entries: Entry[] = [];
  for (let index = 0; index < count; index++) {
    if (at + 46 > bytes.length || u32(bytes, at) !== 0x02014b50) return null;
    const nameLength = u16(bytes, at + 28);
    const local = u32(bytes, at + 42);
    if (local + 30 > bytes.length || u32(bytes, local) !== 0x04034b50) return null;
    const entry = {
      name: new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: u16(bytes, at + 10),
      compressedSize: u32(bytes, at + 20),
      size: u32(bytes, at + 24),
      dataStart: local + 30 + u16(bytes, local + 26) + u16(bytes, local + 28),
    };
    if (entry.dataStart + entry.compressedSize > bytes.length) return null;
    entries.push(entry);
    at += 46 + nameLength + u16(bytes, at + 30) + u16(bytes, at + 32);
  }
  return entries;
}

/**
 * The chosen entries' contents by name. Throws `HistoryFileError` with `tooLarge` for an archive
 * that unpacks past `maxTotal` (declared or produced), and `unreadable` for anything else amiss,
 * an entry producing more than it declared included.
 */
export function unzipChosen(
  bytes: Uint8Array,
  choose: (name: string) => boolean,
  maxTotal: number,
  messages: { tooLarge: string; unreadable: string },
): Record<string, Uint8Array> {
  const entries = directory(bytes)?.filter((entry) => choose(entry.name));
  if (!entries) throw new HistoryFileError(messages.unreadable);
  const declared = entries.reduce((sum, entry) => sum + entry.size, 0);
  if (declared > maxTotal) throw new HistoryFileError(messages.tooLarge);
  let total = 0;
  const files: Record<string, Uint8Array> = {};
  for (const entry of entries) {
    const data = bytes.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
    if (entry.method === 0) {
      if (data.length !== entry.size) throw new HistoryFileError(messages.unreadable);
      files[entry.name] = data.slice();
      total += data.length;
      continue;
    }
    if (entry.method !== 8) throw new HistoryFileError(messages.unreadable);
    const out = new Uint8Array(entry.size);
    let produced = 0;
    let finished = false;
    const inflate = new Inflate((chunk, final) => {
      if (produced + chunk.length > entry.size) throw new HistoryFileError(messages.unreadable);
      out.set(chunk, produced);
      produced += chunk.length;
      if (final) finished = true;
    });
    try {
      for (let at = 0; at < data.length && !finished; at += STEP) {
        inflate.push(data.subarray(at, at + STEP), at + STEP >= data.length);
      }
    } catch (error) {
      if (error instanceof HistoryFileError) throw error;
      throw new HistoryFileError(messages.unreadable);
    }
    if (!finished || produced !== entry.size) throw new HistoryFileError(messages.unreadable);
    total += produced;
    files[entry.name] = out;
  }
  if (total > maxTotal) throw new HistoryFileError(messages.tooLarge);
  return files;
}
