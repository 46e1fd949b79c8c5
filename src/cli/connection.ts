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

/** A line on stdout (nothing for an empty answer). */
export function print(s: string): void {
  if (s !== '') process.stdout.write(`${s}\n`);
}
