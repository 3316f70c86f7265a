// Each person's storage (decision 074): what their own files may take in all, shown in Settings
// and checked as an upload streams in.

/** 1 GB (binary, as the media limits' MB are) for every person. */
export const STORAGE_QUOTA_BYTES = 1024 ** 3;

export const STORAGE_FULL_TITLE = "Storage full";

const UNITS = ["bytes", "KB", "MB", "GB"] as const;

/** Bytes as people read them: "0 bytes", "812 KB", "4.2 MB", "1 GB". */
export function formatBytes(bytes: number) {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = unit === 0 || value >= 100 ? Math.round(value) : Number(value.toFixed(1));
  return `${shown} ${UNITS[unit]}`;
}

export function storageFullMessage(remaining: number, quota = STORAGE_QUOTA_BYTES) {
  return `This file does not fit: ${formatBytes(remaining)} of your ${formatBytes(quota)} of storage is left.`;
}
