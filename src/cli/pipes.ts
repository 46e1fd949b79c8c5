// `loam … | head -1`: when the reader of stdout goes away, the next write fails with EPIPE,
// emitted as an 'error' event nobody handles, and Node prints a stack trace. The output was
// for that reader, who has what they wanted: the command ends quietly instead.

/** Commands whose stdout is a server's log, not their product: a closed one is left to crash as before. */
export const SERVER_COMMANDS: ReadonlySet<string> = new Set(['dev', 'serve', 'control-plane']);

/** Errors of a write to a reader that has gone. */
const GONE = new Set(['EPIPE', 'ERR_STREAM_DESTROYED']);

/** Ends the process (status 0) when stdout's or stderr's reader closes; other stream errors are thrown as before. */
export function exitQuietlyWhenReaderCloses(command: string | undefined): void {
  if (command !== undefined && SERVER_COMMANDS.has(command)) return;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== undefined && GONE.has(e.code)) process.exit(0);
      throw e;
    });
  }
}
