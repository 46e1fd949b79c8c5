// LISTEN/NOTIFY for watch (spec §2.2, §5.4). Every catalog change sends one NOTIFY on
// NOTIFY_CHANNEL inside its transaction, with the namespace id as payload; Postgres delivers
// it only after COMMIT. One dedicated connection per handle LISTENs (opened at the first
// watch) and wakes the waiters of that namespace's scope and of the 'catalog' scope.
// commitWal, pointers and leases send nothing. A notification only wakes: the watcher then
// reads catalog_changes, so a lost or duplicate notification can delay a wake, never fake one.
// When the server drops the connection (a restart, a failover, pg_terminate_backend) and
// watchers wait, it reconnects by itself with a bounded backoff; every waiter is woken at the
// drop and again once LISTEN is back, so it re-reads whatever the gap hid.
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

export const NOTIFY_CHANNEL = 'loam_catalog';
/** Backoff between reconnect attempts after the listener was dropped: doubling from the first to the last. */
export const RECONNECT_FIRST_MS = 25;
export const RECONNECT_MAX_MS = 2_000;

type Waiter = { ns: number | null; wake: () => void };

export class CatalogListener {
  private client: pg.Client | undefined;
  private connecting: Promise<boolean> | undefined;
  private readonly waiters = new Set<Waiter>();
  private closed = false;
  private reconnecting = false;

  constructor(private readonly config: pg.ClientConfig) {}

  /** Whether notifications are flowing now (else watchers poll faster). */
  get live(): boolean {
    return this.client !== undefined;
  }

  /**
   * Registers a waiter for a scope (ns, or null for the whole catalog) and makes sure the
   * LISTEN is active before returning, so a change committed after this call wakes it.
   * Returns the unregister function. Never throws: without a listener, watchers poll.
   */
  async subscribe(ns: number | null, wake: () => void): Promise<() => void> {
    const w: Waiter = { ns, wake };
    this.waiters.add(w);
    await this.ensure();
    return () => this.waiters.delete(w);
  }

  private ensure(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (this.client) return Promise.resolve(true);
    if (!this.connecting) {
      this.connecting = this.connect().finally(() => (this.connecting = undefined));
    }
    return this.connecting;
  }

  private async connect(): Promise<boolean> {
    const c = new pg.Client(this.config);
    c.on('error', () => this.drop(c));
    c.on('end', () => this.drop(c));
    c.on('notification', (m) => {
      if (m.channel !== NOTIFY_CHANNEL) return;
      const ns = Number(m.payload);
      for (const w of this.waiters) if (w.ns === null || w.ns === ns) w.wake();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${NOTIFY_CHANNEL}`);
    } catch {
      await c.end().catch(() => undefined);
      return false;
    }
    if (this.closed) {
      await c.end().catch(() => undefined);
      return false;
    }
    this.client = c;
    return true;
  }

  /** The listening connection died: wake everyone so they re-read, and listen again while anyone waits. */
  private drop(c: pg.Client): void {
    if (this.client !== c) return;
    this.client = undefined;
    this.wakeAll();
    void this.reconnect();
  }

  private wakeAll(): void {
    for (const w of this.waiters) w.wake();
  }

  /** Bounded backoff; stops once connected, closed, or nobody waits (the next subscribe connects). */
  private async reconnect(): Promise<void> {
    if (this.reconnecting) return;
    this.reconnecting = true;
    try {
      for (let delay = RECONNECT_FIRST_MS; !this.closed && !this.client && this.waiters.size > 0; delay = Math.min(delay * 2, RECONNECT_MAX_MS)) {
        if (await this.ensure()) {
          this.wakeAll(); // changes committed while nobody listened are read now
          return;
        }
        await sleep(delay);
      }
    } finally {
      this.reconnecting = false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiters) w.wake();
    const c = this.client;
    this.client = undefined;
    await this.connecting?.catch(() => undefined);
    await c?.end().catch(() => undefined);
  }
}
