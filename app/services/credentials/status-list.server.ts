import { readCapped } from "#app/services/outside-web.server.ts";

/**
 * W3C Bitstring Status List v1.0: a list of STATUS_LIST_SIZE bits (16 KiB; the minimum size
 * the specification sets for herd privacy), gzip-compressed, base64url-encoded with the multibase
 * prefix "u". Bit 0 is the leftmost (most significant) bit of the first byte.
 */
export const STATUS_LIST_SIZE = 131_072;

/** Bytes are fed to (de)compression in small pieces, so one piece never inflates past about 1 MB. */
const PIECE_BYTES = 1024;

/** A stream of `bytes` in pieces, each made only when the reader pulls it. */
function piecesOf(bytes: Uint8Array, pieceBytes = PIECE_BYTES) {
  let offset = 0;
  return new ReadableStream<BufferSource>({
    pull(controller) {
      if (offset >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(offset, (offset += pieceBytes)));
    },
  });
}

/**
 * The bitstring inflated from a gzip stream, or null once it would exceed `maxBytes`: the
 * decompression is then cancelled, so a small bomb never grows past the cap and one piece.
 */
export function inflateCapped(gzip: ReadableStream<BufferSource>, maxBytes: number) {
  return readCapped(gzip.pipeThrough(new DecompressionStream("gzip")), maxBytes);
}

function base64url(bytes: Uint8Array) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text: string) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export async function encodeList(bits: Uint8Array) {
  const compressed = await readCapped(piecesOf(bits).pipeThrough(new CompressionStream("gzip")), Infinity);
  return `u${base64url(compressed!)}`;
}

/**
 * The most a status list may hold: 2 MB, 16,777,216 entries. Ours are 16 KB; another issuer's may
 * be larger (the specification sets only a minimum), and is read up to this cap (issue 43).
 */
export const STATUS_LIST_MAX_BYTES = 2 * 1024 * 1024;

/**
 * The bitstring of an encodedList, or null when it is not one, or inflates to more than it
 * declares or than `maxBytes`. A list has no length field of its own; its gzip stream's trailer
 * (ISIZE, the last four bytes) declares the size it inflates to. The cap follows that size, up to
 * `maxBytes`, so a lawful large list is read whole and a bomb is refused before it is inflated, or
 * at its first byte past what it declared.
 */
export async function decodeList(encoded: string, maxBytes = STATUS_LIST_MAX_BYTES): Promise<Uint8Array | null> {
  if (!encoded.startsWith("u")) return null;
  try {
    const gzip = fromBase64url(encoded.slice(1));
    if (gzip.byteLength < 18) return null;
    const declared = new DataView(gzip.buffer, gzip.byteOffset + gzip.byteLength - 4, 4).getUint32(0, true);
    if (declared === 0 || declared > maxBytes) return null;
    const bits = await inflateCapped(piecesOf(gzip), declared);
    return bits?.byteLength === declared ? bits : null;
  } catch {
    return null;
  }
}

export const emptyList = () => new Uint8Array(STATUS_LIST_SIZE / 8);

export function isSet(bits: Uint8Array, index: number) {
  const byte = bits[index >> 3];
  return byte !== undefined && (byte & (0x80 >> (index & 7))) !== 0;
}

export function setBit(bits: Uint8Array, index: number) {
  bits[index >> 3] = (bits[index >> 3] ?? 0) | (0x80 >> (index & 7));
}
