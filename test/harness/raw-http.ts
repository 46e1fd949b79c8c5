// A request written byte for byte on a socket, for what fetch cannot send: repeated headers, or
// a body declared and never sent (a server that answers before reading it must answer at once).
import { connect } from 'node:net';

/** How long the answer's head may take. */
const HEAD_DEADLINE_MS = 10_000;

/** Writes `text` to the server at `url` and resolves with the answer up to the end of its head. */
export function answerHead(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise<string>((resolve, reject) => {
    const s = connect(Number(port), hostname);
    let got = '';
    const timer = setTimeout(() => (s.destroy(), reject(new Error(`no answer within ${HEAD_DEADLINE_MS} ms (the request's body, if any, unsent): ${got}`))), HEAD_DEADLINE_MS);
    s.on('data', (b: Buffer) => {
      got += b.toString();
      if (!got.includes('\r\n\r\n')) return;
      clearTimeout(timer);
      s.destroy();
      resolve(got);
    });
    s.on('error', (e) => (clearTimeout(timer), reject(e)));
    s.write(text);
  });
}

/** Writes `text` (a request with `Connection: close`) and resolves with the whole answer once the server closes. */
export function answerAll(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise<string>((resolve, reject) => {
    const s = connect(Number(port), hostname);
    let got = '';
    s.setTimeout(HEAD_DEADLINE_MS, () => (s.destroy(), reject(new Error(`the server did not close within ${HEAD_DEADLINE_MS} ms: ${got}`))));
    s.on('data', (b: Buffer) => (got += b.toString()));
    s.on('end', () => resolve(got));
    s.on('error', reject);
    s.write(text);
  });
}
