import { Refusal } from "./domain-errors.server.ts";
import { formatBytes, STORAGE_FULL_TITLE, STORAGE_QUOTA_BYTES } from "./storage-quota.ts";

// The server's half of each person's storage (decision 074), shared by the upload reader (HTTP)
// and the services that keep files, which may not import the upload helpers (issue 42).

/**
 * Asked once per request, as its first file begins (decision 074): whether the person may upload
 * now (their upload rate), and how many bytes their files may still take (Infinity when the
 * files are not theirs to count).
 */
export type UploadAllowance = () => Promise<{ allowed: false } | { allowed: true; remaining: number }>;

/**
 * 'Storage full' for a write the database refused because its tally would cross the quota
 * (migration 0026's trigger): another upload took the space this one was checked against.
 */
export function refusedOverQuota(error: unknown) {
  if (!String(error).includes("storage quota exceeded")) return null;
  return new Refusal({
    title: STORAGE_FULL_TITLE,
    description: `This file does not fit: your other uploads have filled your ${formatBytes(STORAGE_QUOTA_BYTES)} of storage.`,
    variant: "destructive",
  });
}
