import { unstable_parseMultipartFormData } from "@remix-run/cloudflare";
import { UNEXPECTED_FAILURE } from "#app/utils/form-reply.server.ts";
import { errorSummary, log } from "#app/utils/log.server.ts";
import { BUCKETS, mediaUrl, type StoredFile } from "#app/utils/media.server.ts";
import {
  IMAGE_UNREADABLE,
  imageTooLarge,
  MEDIA_LIMITS,
  MEDIA_MESSAGES,
  type FileLimit,
} from "#app/utils/media-limits.ts";
import { STORAGE_FULL_TITLE, storageFullMessage } from "#app/utils/storage-quota.ts";
import { refusedOverQuota, type UploadAllowance } from "#app/utils/storage-quota.server.ts";
import {
  concat,
  DimensionsProbe,
  DurationProbe,
  MarkupScanner,
  SNIFF_BYTES,
  sniffMedia,
  type MediaType,
} from "./media-types.server.ts";

// Uploads stream from the request straight into R2: the size limit, the real type (from the
// first bytes) and a video's duration (from its container header) are checked while the bytes
// pass, so no file is ever held whole in memory and a refused one leaves nothing behind.

export class UploadError extends Error {
  constructor(
    readonly title: string,
    readonly description: string,
    /** The form field the refusal belongs to, when there is one. */
    readonly field?: string,
    /** Not a refusal of the file: storing it failed (R2), so nothing the person did is wrong. */
    readonly unexpected = false,
    /** The answer's status when it is not the usual 400 (429 for too many uploads). */
    readonly status = 400,
  ) {
    super(description);
  }

  /** The same refusal, blamed on `field`. */
  in(field: string) {
    return new UploadError(this.title, this.description, field, this.unexpected, this.status);
  }
}

/** What one file field accepts: each kind it takes with its limits, and where it is stored. */
export type FileRule = {
  image?: FileLimit;
  video?: FileLimit;
  invalidType: string;
  key: (type: MediaType) => string;
  /** The spec's title when storing the file fails ('Error uploading avatar'); 'Upload failed' if none. */
  failureTitle?: string;
  /** The most pixels each way a picture may have, read from its header (decision 074). */
  maxImageSide?: number;
};

export const TOO_MANY_UPLOADS = "Too many uploads. Please wait 10 minutes and try again.";

// R2 multipart parts must be at least 5 MiB (all but the last) and all the same size.
const PART_BYTES = 5 * 1024 * 1024;
const MAX_PARTS = 30;
const MAX_TEXT_FIELD_BYTES = 64 * 1024;
/** Room for a form's text fields and multipart framing in the body-size check. */
const MAX_TEXT_BYTES = 1024 * 1024;

/** Key patterns of the spec, under the bucket prefixes of decisions.md. */
const bucketOf = (type: MediaType) => (type.kind === "video" ? BUCKETS.videos : BUCKETS.images);
export const mediaKeys = {
  organisation: (organizationId: string) => (type: MediaType) =>
    `${bucketOf(type)}/${organizationId}/${crypto.randomUUID()}.${type.ext}`,
  self: (userId: string) => (type: MediaType) =>
    `${bucketOf(type)}/self-achievements/${userId}/${crypto.randomUUID()}.${type.ext}`,
  // A new unguessable key on every upload (the previous object is deleted): a private or archived
  // profile's picture or video cannot be fetched by building its key from the user id. The user
  // id stays in the prefix, so a purge finds every object of the user.
  avatar: (userId: string) => (type: Pick<MediaType, "ext">) =>
    `${BUCKETS.avatars}/${userId}/${crypto.randomUUID()}.${type.ext}`,
  /** `upload` is one random id per upload, shared by the video and its thumbnail. */
  intro: (userId: string, upload: string) => (type: MediaType) =>
    `${BUCKETS.videos}/intro-${userId}-${upload}${type.kind === "image" ? "-thumbnail" : ""}.${type.ext}`,
};

/** The rules of the achievement forms: a picture or a video, a cover for the video, and the browser's thumbnail. */
export function achievementFileRules(key: FileRule["key"]): Record<string, FileRule> {
  return {
    media: {
      image: MEDIA_LIMITS.image,
      video: MEDIA_LIMITS.achievementVideo,
      invalidType: MEDIA_MESSAGES.invalidMedia,
      key,
    },
    cover: { image: MEDIA_LIMITS.cover, invalidType: MEDIA_MESSAGES.invalidImage, key },
    thumbnail: { image: MEDIA_LIMITS.image, invalidType: MEDIA_MESSAGES.invalidImage, key },
  };
}

/** Whether the request carries a form with files (the only forms read by readUploadForm). */
export function isUpload(request: Request) {
  return request.headers.get("Content-Type")?.startsWith("multipart/form-data") ?? false;
}

export type UploadForm = {
  /** The text fields, as far as they were read. */
  fields: FormData;
  files: Map<string, StoredFile>;
  /** The first refusal; the files stored before it are already deleted. */
  error: UploadError | null;
  /** Deletes every stored file (a later step refused the submission). */
  discard: () => Promise<void>;
  /** Deletes the stored files whose URLs are not listed (a cover not needed after all). */
  keepOnly: (urls: (string | null)[]) => Promise<void>;
  /** Runs the write that uses the files, deleting them when it fails. */
  use: <T>(work: () => Promise<T>) => Promise<T>;
};

/**
 * Reads a form whose file fields follow `rules`. Files of other fields are refused; text fields
 * are kept (bounded in size and number) so a refused submission can show them again.
 */
export async function readUploadForm(
  request: Request,
  bucket: R2Bucket,
  rules: Record<string, FileRule>,
  allowance?: UploadAllowance,
  /** The request's id, for the log of a storage failure. */
  requestId?: string,
): Promise<UploadForm> {
  const fields = new FormData();
  const files = new Map<string, StoredFile>();
  const keepOnly = async (urls: (string | null)[]) => {
    const unused = [...files].filter(([, file]) => !urls.includes(file.url));
    for (const [field] of unused) files.delete(field);
    if (unused.length) await bucket.delete(unused.map(([, file]) => file.key));
  };
  const discard = () => keepOnly([]);
  const form: UploadForm = {
    fields,
    files,
    error: null,
    discard,
    keepOnly,
    use: async (work) => {
      try {
        return await work();
      } catch (error) {
        await discard();
        throw refusedOverQuota(error) ?? error;
      }
    },
  };

  // A body longer than every file at its limit, plus room for the text, is refused unread.
  const fieldLimits = Object.values(rules).map((rule) =>
    [rule.image, rule.video].reduce<FileLimit | undefined>(
      (big, limit) => (limit && limit.maxBytes > (big?.maxBytes ?? 0) ? limit : big),
      undefined,
    ),
  );
  const allowedBody = fieldLimits.reduce((sum, limit) => sum + (limit?.maxBytes ?? 0), MAX_TEXT_BYTES);
  if (Number(request.headers.get("Content-Length") ?? 0) > allowedBody) {
    const biggest = fieldLimits.reduce(
      (big, limit) => ((limit?.maxBytes ?? 0) > (big?.maxBytes ?? 0) ? limit : big),
      undefined,
    );
    form.error = new UploadError(MEDIA_MESSAGES.tooLargeTitle, biggest?.tooLarge ?? "The upload is too large.");
    return form;
  }
  if (!isUpload(request)) {
    // A form without files (or a hand-made request): text fields only.
    for (const [name, value] of await request.formData()) if (typeof value === "string") fields.append(name, value);
    return form;
  }

  let parts = 0;
  // What this request's files may still take, known once the first one begins.
  let budget: Promise<Budget> | null = null;
  const admit = (rule: FileRule) => {
    budget ??= (allowance?.() ?? Promise.resolve({ allowed: true as const, remaining: Infinity })).then((answer) => {
      if (!answer.allowed) {
        throw new UploadError(rule.failureTitle ?? "Upload failed", TOO_MANY_UPLOADS, undefined, false, 429);
      }
      return { left: answer.remaining, remaining: answer.remaining };
    });
    return budget;
  };
  try {
    await unstable_parseMultipartFormData(request, async (part) => {
      if (++parts > MAX_PARTS) throw new UploadError("Upload refused", "The form has too many parts.");
      if (part.filename === undefined) {
        fields.append(part.name, await readText(part.data));
        return undefined;
      }
      const rule = rules[part.name];
      if (!rule) throw new UploadError("Upload refused", "This form does not take that file.", part.name);
      if (files.has(part.name)) throw new UploadError("Upload refused", "Only one file per field.", part.name);
      try {
        const stored = await streamToR2(bucket, part, rule, admit);
        if (stored) files.set(part.name, stored);
      } catch (error) {
        if (error instanceof UploadError) throw error.in(part.name);
        if (isUnreadable(error)) throw error;
        // The body was fine; the storage failed while it was being read.
        const title = rule.failureTitle ?? "Upload failed";
        log("error", "upload storage failed", {
          title,
          field: part.name,
          requestId,
          error: errorSummary(error),
        });
        throw new UploadError(title, UNEXPECTED_FAILURE, part.name, true);
      }
      return undefined;
    });
  } catch (error) {
    await discard();
    if (error instanceof UploadError) form.error = error;
    else if (isUnreadable(error)) {
      form.error = new UploadError("Upload failed", "The upload could not be read. Please try again.");
    } else throw error;
  }
  return form;
}

/** A body that cannot be read as a multipart form (malformed, or cut off). */
function isUnreadable(error: unknown) {
  return error instanceof TypeError || (error instanceof Error && /malformed|multipart/i.test(error.message));
}

async function readText(data: AsyncIterable<Uint8Array>) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of data) {
    size += chunk.length;
    if (size > MAX_TEXT_FIELD_BYTES) throw new UploadError("Validation error", "A field of this form is far too long.");
    chunks.push(chunk);
  }
  return new TextDecoder().decode(concat(chunks, size));
}

/** The bytes a request's files may still take (`left`), of what was `remaining` before them. */
type Budget = { left: number; remaining: number };

/**
 * Streams one file into R2 under the rule's key. Returns null for an empty file field (no file
 * chosen); refuses an empty file, a file whose bytes are not an accepted type (or not the kind,
 * image or video, it claims to be), one past its size limit, an image carrying web-page markup,
 * a picture over its pixels or whose header cannot be read, a video whose duration is over its
 * limit or cannot be read, and any file once the person's upload rate or storage is spent. The
 * file's name is never used.
 */
async function streamToR2(
  bucket: R2Bucket,
  { data, filename, contentType }: { data: AsyncIterable<Uint8Array>; filename?: string; contentType?: string },
  rule: FileRule,
  admit: (rule: FileRule) => Promise<Budget>,
): Promise<StoredFile | null> {
  let head: Uint8Array[] = [];
  let size = 0;
  let writer: R2StreamWriter | null = null;
  let type: MediaType | null = null;
  let limit: FileLimit | undefined;
  let probe: DurationProbe | null = null;
  let markup: MarkupScanner | null = null;
  let dimensions: DimensionsProbe | null = null;
  let budget: Budget | null = null;
  const refusePicture = (description: string) => new UploadError(rule.failureTitle ?? "Upload failed", description);
  const checkDimensions = () => {
    const found = dimensions?.found;
    if (found && (found.width > rule.maxImageSide! || found.height > rule.maxImageSide!))
      throw refusePicture(imageTooLarge(found.width, found.height));
  };

  const begin = async (bytes: Uint8Array) => {
    type = sniffMedia(bytes);
    limit = type ? rule[type.kind] : undefined;
    if (!type || !limit) throw new UploadError(MEDIA_MESSAGES.invalidTypeTitle, rule.invalidType);
    const claimed = contentType?.split("/")[0];
    if ((claimed === "image" || claimed === "video") && claimed !== type.kind) {
      throw new UploadError(MEDIA_MESSAGES.invalidTypeTitle, MEDIA_MESSAGES.typeMismatch);
    }
    if (size > limit.maxBytes) throw new UploadError(MEDIA_MESSAGES.tooLargeTitle, limit.tooLarge);
    probe = type.kind === "video" ? new DurationProbe(type) : null;
    markup = type.kind === "image" ? new MarkupScanner() : null;
    dimensions = type.kind === "image" && rule.maxImageSide ? new DimensionsProbe(type) : null;
    budget = await admit(rule);
    writer = new R2StreamWriter(bucket, rule.key(type), type.mime);
  };
  const write = async (chunk: Uint8Array) => {
    if (size > limit!.maxBytes) throw new UploadError(MEDIA_MESSAGES.tooLargeTitle, limit!.tooLarge);
    budget!.left -= chunk.length;
    if (budget!.left < 0) {
      throw new UploadError(STORAGE_FULL_TITLE, storageFullMessage(budget!.remaining), undefined, false, 413);
    }
    if (dimensions) {
      dimensions.push(chunk);
      checkDimensions();
    }
    if (markup) {
      markup.push(chunk);
      if (markup.found) throw new UploadError(MEDIA_MESSAGES.invalidTypeTitle, MEDIA_MESSAGES.markupInImage);
    }
    if (probe) {
      probe.push(chunk);
      if (probe.duration !== null && probe.duration > limit!.maxSeconds!)
        throw new UploadError(MEDIA_MESSAGES.tooLongTitle, limit!.tooLong!);
    }
    await writer!.write(chunk);
  };

  try {
    for await (const chunk of data) {
      if (chunk.length === 0) continue;
      size += chunk.length;
      if (writer) {
        await write(chunk);
        continue;
      }
      head.push(chunk);
      if (size < SNIFF_BYTES) continue;
      const bytes = concat(head);
      head = [];
      await begin(bytes);
      await write(bytes);
    }
    // Browsers send an empty, nameless part for a file field left empty.
    if (size === 0) {
      if (filename) throw new UploadError(MEDIA_MESSAGES.invalidTypeTitle, MEDIA_MESSAGES.emptyFile);
      return null;
    }
    if (!writer) {
      const bytes = concat(head);
      await begin(bytes);
      await write(bytes);
    }
    if (dimensions && !(dimensions as DimensionsProbe).found) throw refusePicture(IMAGE_UNREADABLE);
    let duration: number | null = null;
    if (probe) {
      duration = (probe as DurationProbe).end();
      if (duration === null) throw new UploadError(MEDIA_MESSAGES.durationTitle, MEDIA_MESSAGES.duration);
      if (duration > limit!.maxSeconds!) throw new UploadError(MEDIA_MESSAGES.tooLongTitle, limit!.tooLong!);
    }
    const key = await (writer as unknown as R2StreamWriter).close();
    return { key, url: mediaUrl(key), type: type!, duration, size };
  } catch (error) {
    await (writer as R2StreamWriter | null)?.abort();
    throw error;
  }
}

/**
 * Writes a stream of unknown length to R2 with bounded memory: small files in one put, larger
 * ones as a multipart upload of fixed 5 MiB parts.
 */
class R2StreamWriter {
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  private upload: R2MultipartUpload | null = null;
  private parts: R2UploadedPart[] = [];

  constructor(
    private readonly bucket: R2Bucket,
    private readonly key: string,
    private readonly contentType: string,
  ) {}

  async write(chunk: Uint8Array) {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    while (this.buffered >= PART_BYTES) await this.flush(PART_BYTES);
  }

  private async flush(length: number) {
    const all = concat(this.chunks, this.buffered);
    const rest = all.subarray(length);
    this.chunks = rest.length ? [rest] : [];
    this.buffered = rest.length;
    this.upload ??= await this.bucket.createMultipartUpload(this.key, {
      httpMetadata: { contentType: this.contentType },
    });
    this.parts.push(await this.upload.uploadPart(this.parts.length + 1, all.subarray(0, length)));
  }

  async close() {
    if (!this.upload) {
      await this.bucket.put(this.key, concat(this.chunks, this.buffered), {
        httpMetadata: { contentType: this.contentType },
      });
    } else {
      if (this.buffered) await this.flush(this.buffered);
      await this.upload.complete(this.parts);
    }
    return this.key;
  }

  async abort() {
    await this.upload?.abort();
  }
}
