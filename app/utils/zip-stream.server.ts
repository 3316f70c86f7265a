import { Zip, ZipDeflate, ZipPassThrough } from "fflate";

/** One file of a ZIP: text (compressed) or a stream of bytes (stored as is: media is compressed already). */
export type ZipEntry = { name: string; lastModified?: Date } & (
  { text: string } | { stream: () => Promise<ReadableStream<Uint8Array> | null> }
);

/**
 * A ZIP archive as a byte stream, built while it is read: each pull moves one chunk of one file
 * through the archiver, so only about a chunk of media is in memory at any time, whatever the
 * size of the whole. `entries` is consumed lazily too (a file is opened when its turn comes).
 */
export function zipStream(entries: AsyncIterable<ZipEntry>): ReadableStream<Uint8Array> {
  const output: Uint8Array[] = [];
  let failed: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failed = error;
    else output.push(chunk);
  });
  const iterator = entries[Symbol.asyncIterator]();
  let current: { file: ZipPassThrough; reader: ReadableStreamDefaultReader<Uint8Array> } | null = null;
  let done = false;

  /** Feeds the archiver until it has produced something to send, or everything is written. */
  async function advance() {
    while (output.length === 0 && !done) {
      if (current) {
        const { value, done: finished } = await current.reader.read();
        if (finished) {
          current.file.push(new Uint8Array(0), true);
          current = null;
        } else {
          current.file.push(value);
        }
        continue;
      }
      const next = await iterator.next();
      if (next.done) {
        zip.end();
        done = true;
        break;
      }
      const entry = next.value;
      if ("text" in entry) {
        const file = new ZipDeflate(entry.name, { level: 6 });
        if (entry.lastModified) file.mtime = entry.lastModified;
        zip.add(file);
        file.push(new TextEncoder().encode(entry.text), true);
      } else {
        const stream = await entry.stream();
        if (!stream) continue;
        const file = new ZipPassThrough(entry.name);
        if (entry.lastModified) file.mtime = entry.lastModified;
        zip.add(file);
        current = { file, reader: stream.getReader() };
      }
    }
    if (failed) throw failed;
  }

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        await advance();
        while (output.length > 0) controller.enqueue(output.shift()!);
        if (done && output.length === 0) controller.close();
      },
      async cancel() {
        await current?.reader.cancel();
        await iterator.return?.();
      },
    },
    // Pull one piece at a time: the reader (the network) sets the pace.
    { highWaterMark: 0 },
  );
}
