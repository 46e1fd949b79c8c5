// The models the checker knows, by name. Each call builds a fresh instance (models keep
// per-check tables, e.g. the log's interned range lists).
import { HistoryError } from '../history.js';
import { HandlerModel, type Model } from '../model.js';
import { collectionHeadHandlers } from './collection-head.js';
import { leaseHandlers, leaseKind } from './lease.js';
import { logHandlers, partitionKind } from './log.js';
import { collectionNameKind, nameHandlers, namespaceNameKind } from './names.js';
import { pointerHandlers, pointerKind } from './pointer.js';
import { registerModel } from './register.js';

export const MODELS: Record<string, { summary: string; build: () => Model }> = {
  register: {
    summary: 'a read/write/cas register per key (Jepsen, Porcupine histories)',
    build: registerModel,
  },
  pointer: {
    summary: 'casPointer/pointer with dense versions; fenced cas checked against the lease ops in the history',
    build: () =>
      new HandlerModel(
        'pointer',
        MODELS.pointer!.summary,
        [...pointerHandlers(), ...leaseHandlers()],
        [pointerKind, leaseKind],
      ),
  },
  lease: {
    summary: 'acquireLease/renewLease/releaseLease/lease with epochs and stamp-judged expiry',
    build: () => new HandlerModel('lease', MODELS.lease!.summary, leaseHandlers(), [leaseKind]),
  },
  log: {
    summary: 'commitWal (atomic per group, idempotent per (object, group), dense offsets), partitionIndex, streamState, trimPartition, swapSegment',
    build: () => {
      const l = logHandlers();
      return new HandlerModel('log', MODELS.log!.summary, l.handlers, [partitionKind], [l.precheck]);
    },
  },
  names: {
    summary: 'name uniqueness: create/drop/byName for namespaces and collections',
    build: () => {
      const n = nameHandlers();
      return new HandlerModel('names', MODELS.names!.summary, n.handlers, [namespaceNameKind, collectionNameKind], n.prechecks);
    },
  },
  collectionHead: {
    summary: 'the read order pointer-then-heads of collectionHead, with the pointer, lease and log ops',
    build: () => {
      const l = logHandlers();
      const c = collectionHeadHandlers();
      return new HandlerModel(
        'collectionHead',
        MODELS.collectionHead!.summary,
        [...pointerHandlers(), ...leaseHandlers(), ...l.handlers, ...c.handlers],
        [pointerKind, leaseKind, partitionKind],
        [l.precheck, c.precheck],
      );
    },
  },
  meta: {
    summary: 'every MetaStore op above in one history (pointer, lease, log, names, collectionHead)',
    build: () => {
      const l = logHandlers();
      const c = collectionHeadHandlers();
      const n = nameHandlers();
      return new HandlerModel(
        'meta',
        MODELS.meta!.summary,
        [...pointerHandlers(), ...leaseHandlers(), ...l.handlers, ...c.handlers, ...n.handlers],
        [pointerKind, leaseKind, partitionKind, namespaceNameKind, collectionNameKind],
        [l.precheck, c.precheck, ...n.prechecks],
      );
    },
  },
};

export const MODEL_NAMES = Object.keys(MODELS);

/** A fresh model by name; HistoryError for an unknown one. */
export function createModel(name: string): Model {
  const m = MODELS[name];
  if (!m) throw new HistoryError(`unknown model "${name}"; known models: ${MODEL_NAMES.join(', ')}`);
  return m.build();
}
