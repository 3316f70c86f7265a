// A request body read whole, but never past a cap: a declared length over it is refused unread,
// and a body that goes on past it (chunked, or longer than its Content-Length said) is cut off
// and refused.

/** The body's bytes, or null when it is larger than `maxBytes`. */
export async function readBoundedBody(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | null> {
  if (Number(request.headers.get("Content-Length") ?? 0) > maxBytes) return null;
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

/** The form, or null when the body is larger than `maxBytes`. */
export async function readBoundedForm(request: Request, maxBytes: number): Promise<FormData | null> {
  const body = await readBoundedBody(request, maxBytes);
  if (!body) return null;
  const type = request.headers.get("Content-Type") ?? "application/x-www-form-urlencoded";
  try {
    return await new Response(body, { headers: { "Content-Type": type } }).formData();
  } catch {
    return new FormData();
  }
}
