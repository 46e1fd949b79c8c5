// A collection's log retention as the API sets it: how much of its implicit stream is kept
// beyond what every retained manifest has applied (the workers never trim past that,
// src/workers/segmenter.ts). The metastore takes any positive bound; the API's are narrower,
// so a typo cannot ask for a byte bound smaller than a WAL chunk or an age beyond any use.

/** The shortest age bound: records are judged by their objects' stamps, and a pass runs every few seconds. */
export const MIN_LOG_RETENTION_MS = 1_000;
/** The longest age bound (10 years); `null` keeps the log for ever. */
export const MAX_LOG_RETENTION_MS = 10 * 365 * 86_400_000;
/** The smallest per-partition byte bound (1 MiB). */
export const MIN_LOG_RETENTION_BYTES = 1024 * 1024;
/** The largest per-partition byte bound (1 PiB); `null` sets no byte bound. */
export const MAX_LOG_RETENTION_BYTES = 2 ** 50;

