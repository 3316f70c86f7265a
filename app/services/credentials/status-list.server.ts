/**
 * W3C Bitstring Status List v1.0: a list of STATUS_LIST_SIZE bits (16 KiB; the minimum size
 * the specification sets for herd privacy), gzip-compressed, base64url-encoded with the multibase
 * prefix "u". Bit 0 is the leftmost (most significant) bit of the first byte.
 */
export const STATUS_LIST_SIZE = 131_072;

async function pipe(bytes: Uint8Array, transform: CompressionStream | DecompressionStream) {
  const stream = new Blob([Uint8Array.from(bytes)]).stream().pipeThrough(transform);
  // A Response here only reads the stream to its end; nothing is answered with it.
  // eslint-disable-next-line no-restricted-syntax
  return new Uint8Array(await new Response(stream).arrayBuffer());
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
  return `u${base64url(await pipe(bits, new CompressionStream("gzip")))}`;
}

/** The bitstring of an encodedList, or null when it is not one. */
export async function decodeList(encoded: string): Promise<Uint8Array | null> {
  if (!encoded.startsWith("u")) return null;
  try {
    return await pipe(fromBase64url(encoded.slice(1)), new DecompressionStream("gzip"));
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
