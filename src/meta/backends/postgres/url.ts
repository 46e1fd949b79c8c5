// A postgres:// URL read without the driver (src/node/config.ts reads it with the config).
import { urlProblem } from '../../url.js';

export const POSTGRES_URL_FORM = 'postgres://user:password@host:port/database';

/**
 * Refuses a URL the driver cannot read, saying why. The driver (pg-connection-string) reads
 * it with `new URL` after encoding spaces and stray `%`, and again with a placeholder host
 * when it has none (`postgres://u:p@/db?host=/socket`); what passes either passes here.
 */
export function checkPostgresUrl(url: string): void {
  const encoded = / |%[^a-f0-9]|%[a-f0-9][^a-f0-9]/i.test(url) ? encodeURI(url).replace(/%25(\d\d)/g, '%$1') : url;
  for (const candidate of [encoded, encoded.replace('@/', '@___DUMMY___/')]) {
    try {
      new URL(candidate, 'postgres://base');
      return;
    } catch {
      // the next reading, or the reason below
    }
  }
  throw new Error(urlProblem(url, POSTGRES_URL_FORM));
}
