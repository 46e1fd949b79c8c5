// `loam docs put`: documents from arguments, a file or stdin, sent in batches one at a time,
// with a progress bar for a file on a terminal; when it stops early it says how far it got.
import { SingleBar } from 'cli-progress';
import { CLIENT_ERROR_CODES, isLoamError, LoamError, mayHaveBeenApplied, type Doc } from '../client/index.js';
import { formatOne } from './output.js';
import { clientFor, print, type Remote } from './connection.js';
import { batches, fromArguments, fromFile, fromStdin, InputError, type Located } from './docs-input.js';

/** Exit status after Ctrl-C: 128 + SIGINT, as a shell reports a command the signal ended. */
export const INTERRUPTED_EXIT = 130;

/** The progress line of a put whose total is known (a file), and of one whose total is not (stdin). */
const FILE_PROGRESS = 'docs put |{bar}| {percentage}% {value}/{total} documents | eta {eta_formatted}';
const STREAM_PROGRESS = 'docs put: {value} documents sent | {duration}s';

/** Where a batch came from: "line 501–line 1000", or "argument 2" for one document. */
function rangeOf(batch: readonly Located[]): string {
  return batch.length === 1 ? batch[0]!.at : `${batch[0]!.at}–${batch[batch.length - 1]!.at}`;
}

/**
 * What became of a batch whose write failed: "was not written" only when the server refused it
 * (or it never left); otherwise it may have been committed and its answer lost.
 */
function fate(e: unknown): string {
  if (!(e instanceof LoamError) || !mayHaveBeenApplied(e)) return 'was not written';
  let why = `the server failed: HTTP ${e.status}`;
  if (e.code === CLIENT_ERROR_CODES.timeout) why = 'no answer in time';
  else if (e.status === 0) why = 'the connection broke';
  else if (e.code === CLIENT_ERROR_CODES.badResponse) why = "the answer was not Loam's";
  return `may or may not have been written (${why}: check with a read)`;
}

/** "upserts[3]" in a server message → the input position of that document. */
function locate(e: unknown, batch: readonly Located[]): string {
  const i = e instanceof LoamError ? /upserts\[(\d+)\]/.exec(e.message)?.[1] : undefined;
  const d = i === undefined ? undefined : batch[Number(i)];
  return d ? ` (upserts[${i}] is ${d.at})` : '';
}

export async function putDocuments(ns: string, coll: string, args: string[], o: Remote & { file?: string; batchSize: number }): Promise<void> {
  const loam = clientFor(o);
  let source: AsyncIterable<Located> | Iterable<Located>;
  let total: number | undefined;
  let streamed = false;
  if (o.file && o.file !== '-') {
    if (args.length > 0) throw new InputError('give documents as arguments or with --file, not both');
    const f = await fromFile(o.file);
    source = f.docs();
    total = f.total;
  } else if (args.length > 0) source = fromArguments(args);
  else if (o.file === '-' || !process.stdin.isTTY) {
    source = fromStdin(process.stdin);
    // Not while someone types the documents: the count would redraw over their line.
    streamed = !process.stdin.isTTY;
  }
  else throw new InputError('no documents: give them as arguments (JSON objects), with --file PATH, or on stdin');
  // A bar only for people: stdout a terminal (cli-progress itself stays quiet when stderr is not one).
  // From stdin the total is unknown: a count of what was sent, and for how long, in its place.
  const bar = !process.stdout.isTTY || (total === undefined && !streamed) ? null : new SingleBar({ format: streamed ? STREAM_PROGRESS : FILE_PROGRESS, hideCursor: true });
  let written = 0;
  let token: string | undefined;
  let last = '';
  let sending: readonly Located[] | null = null;
  const done = () => `${written} documents written${last ? ` (through ${last})` : ''}`;
  // Ctrl-C: the bar hid the cursor and turned line wrap off, and only stop() undoes that; and
  // whoever pressed it needs to know how far the put got, as when a batch is refused.
  const interrupted = () => {
    bar?.stop();
    console.error(
      sending
        ? `loam: ${done()}; the batch ${rangeOf(sending)} may or may not have been written (interrupted while it was sent: check with a read)`
        : `loam: ${done()}; interrupted before the next batch was sent`,
    );
    process.exit(INTERRUPTED_EXIT);
  };
  process.once('SIGINT', interrupted);
  bar?.start(total ?? 0, 0);
  try {
    for await (const batch of batches(source, o.batchSize)) {
      sending = batch;
      try {
        token = (await loam.write(ns, coll, { upserts: batch.map((d) => d.doc as Doc) })).token;
      } catch (e) {
        bar?.stop();
        // The first answer was not Loam's: the one line about that is all there is to say.
        if (written === 0 && isLoamError(e, CLIENT_ERROR_CODES.badResponse)) throw e;
        console.error(`loam: ${done()}; the batch ${rangeOf(batch)} ${fate(e)}${locate(e, batch)}:`);
        throw e;
      }
      sending = null;
      written += batch.length;
      last = batch[batch.length - 1]!.at;
      bar?.update(written);
    }
  } catch (e) {
    bar?.stop();
    if (e instanceof InputError && written > 0) console.error(`loam: ${written} documents written (through ${last}); nothing after that:`);
    throw e;
  } finally {
    process.off('SIGINT', interrupted);
  }
  bar?.stop();
  print(formatOne({ written, token: token ?? null }, o.output));
}
