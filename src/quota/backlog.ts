// The unapplied-backlog quota (spec §6: at write admission, from the collection's backlog):
// the limits the collection writer checks each write against, which are the collection's
// namespace's effective unapplied_records and unapplied_bytes (override, else the
// deployment's default). One check, in the writer, which knows the batch's size.
import type { MetaStore } from '../meta/contract.js';
import type { Collection } from '../meta/types.js';
import type { BacklogLimits } from '../collection/writer.js';
import type { Quotas } from './quota.js';

/** Namespace → org resolutions kept (ids are never reused, and a namespace never changes org). */
export const MAX_NAMESPACE_ORGS = 100_000;

export class BacklogQuota {
  private readonly orgs = new Map<number, Promise<string>>();
  constructor(
    private readonly meta: MetaStore,
    private readonly quotas: Quotas,
  ) {}

  private orgOf(ns: number): Promise<string> {
    let p = this.orgs.get(ns);
    if (!p) {
      if (this.orgs.size >= MAX_NAMESPACE_ORGS) this.orgs.clear();
      p = this.meta.namespace(ns).then((n) => n.org);
      p.catch(() => this.orgs.delete(ns));
      this.orgs.set(ns, p);
    }
    return p;
  }

  /** The collection's backlog limits now. */
  async limits(c: Collection): Promise<BacklogLimits> {
    const org = await this.orgOf(c.ns);
    const [records, bytes] = await Promise.all([this.quotas.value(org, c.ns, 'unapplied_records'), this.quotas.value(org, c.ns, 'unapplied_bytes')]);
    return { records, bytes };
  }
}
