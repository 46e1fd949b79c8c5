// What every data command shares: the node it talks to and how it prints (./data.ts and the
// files of its commands import it; it imports none of them).
import { LoamClient } from '../client/index.js';
import type { OutputFormat } from './output.js';

/** The options every data command takes: the node's URL and the output format. */
export interface Remote {
  url: string;
  output: OutputFormat;
}

/** The client for `o`'s node, with the API key from LOAM_KEY. */
export function clientFor(o: Remote): LoamClient {
  const key = process.env.LOAM_KEY;
  return new LoamClient({ url: o.url, ...(key ? { key } : {}) });
}

/**
 * A line on stdout that waits while the reader is behind (its pipe full): what streams page by
 * page then holds about a page in memory, not everything the reader has yet to read.
 */
export async function printStreamed(s: string): Promise<void> {
  if (s === '' || process.stdout.write(`${s}\n`)) return;
  // A reader that goes away ends the process (./pipes.ts), so this waits for 'drain' only.
  await new Promise<void>((drained) => process.stdout.once('drain', drained));
}

/** A line on stdout (nothing for an empty answer). */
export function print(s: string): void {
  if (s !== '') process.stdout.write(`${s}\n`);
}
