// A catalog change stream (spec §8: "watch_changes is a server stream with a resume token"):
// the WatchChanges RPC from a version, reopened after a cut from the last version received,
// so a subscriber sees every change in scope exactly once and in order, however often the
// connection drops. The server sends a first heartbeat at once, so `connected` means the
// stream is up, not merely requested.
import * as grpc from '@grpc/grpc-js';
import type { MetaError } from '../../errors.js';
import type { CatalogChange, WatchScope } from '../../types.js';
import type { RemoteChannel } from './channel.js';
import * as c from './codec.js';
import type { ChangeEvent__Output } from './gen/loam/remote/v1/ChangeEvent.js';
import { metaErrorFromStatus } from './wire-errors.js';

/** A stream's own deadline: a little past the server's MAX_WATCH_STREAM_MS, after which it is resumed. */
export const REMOTE_STREAM_DEADLINE_MS = 11 * 60_000;
/** Reconnect backoff: doubling from the first, at most the second. */
export const RESUME_BACKOFF_MS = [25, 1_000] as const;

export interface ChangeStreamEvent {
  /** The resume token after this event. */
  version: number;
  changes: CatalogChange[];
  resync: boolean;
}

export class ChangeStream {
  private call: grpc.ClientReadableStream<ChangeEvent__Output> | null = null;
  private stopped = false;
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly stopListeners: ((e?: MetaError) => void)[] = [];
  private readonly connectListeners: ((up: boolean) => void)[] = [];
  /** Up: the current connection has delivered its first event. */
  connected = false;
  /** Times the stream was reopened from its last version after a cut or an end. */
  resumes = 0;

  constructor(
    private readonly ch: RemoteChannel,
    private readonly scope: WatchScope,
    /** The resume token: every change after it is delivered. */
    public version: number,
    private readonly onEvent: (ev: ChangeStreamEvent) => void,
    private readonly onDone: () => void,
  ) {}

  start(): void {
    this.open(false);
  }

  onStop(f: (e?: MetaError) => void): void {
    if (this.stopped) f();
    else this.stopListeners.push(f);
  }

  onConnection(f: (up: boolean) => void): void {
    this.connectListeners.push(f);
  }

  stop(error?: MetaError): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.timer);
    this.call?.cancel();
    this.call = null;
    this.setConnected(false);
    this.onDone();
    for (const f of this.stopListeners.splice(0)) f(error);
  }

  private setConnected(up: boolean): void {
    if (this.connected === up) return;
    this.connected = up;
    for (const f of this.connectListeners) f(up);
  }

  private open(resume: boolean): void {
    if (this.stopped || this.ch.isClosed) return this.stop();
    if (resume) {
      this.resumes++;
      this.ch.metrics.resumed.inc();
    }
    const md = this.ch.metadata(resume ? { 'loam-resume': '1' } : {});
    const call = this.ch.meta.WatchChanges({ scope: c.watchScopeToWire(this.scope), since: this.version }, md, { deadline: Date.now() + REMOTE_STREAM_DEADLINE_MS });
    this.call = call;
    call.on('data', (ev: ChangeEvent__Output) => {
      if (this.call !== call) return;
      this.failures = 0;
      this.setConnected(true);
      const changes = ev.changes.map(c.changeFromWire).filter((x) => x.version > this.version || ev.resync);
      this.version = Math.max(this.version, ev.version);
      if (changes.length > 0 || ev.resync || ev.changes.length === 0) this.onEvent({ version: this.version, changes, resync: ev.resync });
    });
    const again = (e?: grpc.ServiceError) => {
      if (this.call !== call || this.stopped) return;
      this.call = null;
      this.setConnected(false);
      const typed = e ? metaErrorFromStatus(e) : null;
      // A typed refusal (a bad scope, a dropped cluster) will not change by reconnecting.
      if (typed && typed.code !== 'Retryable') return this.stop(typed);
      const [base, max] = RESUME_BACKOFF_MS;
      const delay = Math.min(max, base * 2 ** this.failures++);
      this.timer = setTimeout(() => this.open(true), delay);
      this.timer.unref();
    };
    call.on('error', (e: grpc.ServiceError) => again(e));
    call.on('end', () => again());
  }
}
