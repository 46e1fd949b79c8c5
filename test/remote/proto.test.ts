// The wire definition (spec §8) is complete and matches its generated types: the checked-in
// types are what `npm run gen:proto` makes from the checked-in .proto (a drift test), the
// loader decodes with the options they were made with, every MetaStore and ControlStore call
// has its rpc, every TypeScript union maps to its proto enum both ways, and every MetaError —
// each code with each detail — crosses the wire unchanged.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import protobuf from 'protobufjs';
import { CHECKED_METHODS } from '../../src/meta/core/checks.js';
import { MetaError, type MetaErrorDetails } from '../../src/meta/index.js';
import { LOADER_OPTIONS, PROTO_PATH } from '../../src/meta/backends/remote/proto.js';
import * as codec from '../../src/meta/backends/remote/codec.js';
import * as controlCodec from '../../src/control/remote-codec.js';
import { ERROR_CODE, metaErrorFromStatus, metaErrorToStatus } from '../../src/meta/backends/remote/wire-errors.js';
import { wireName, type EnumCodec } from '../../src/meta/backends/remote/enums.js';
import { remoteControlStore } from '../../src/control/remote.js';
import type { RemoteChannel } from '../../src/meta/backends/remote/channel.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const GEN = join(ROOT, 'src/meta/backends/remote/gen');
const root = protobuf.loadSync(PROTO_PATH);
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

function files(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of readdirSync(dir, { recursive: true }) as string[]) {
    if (f.endsWith('.ts')) out.set(f, readFileSync(join(dir, f), 'utf8'));
  }
  return out;
}

/** The rpc a contract call maps to: its name in PascalCase, reads of one entity with Get. */
const GET = new Set(['namespace', 'collection', 'aliases', 'stream', 'pointer', 'lease', 'objectRef']);
const rpcName = (m: string) => (GET.has(m) ? 'Get' : '') + m[0]!.toUpperCase() + m.slice(1);

describe('remote: the wire definition', () => {
  test('the checked-in generated types are what npm run gen:proto makes from the .proto', () => {
    const script = pkg.scripts['gen:proto']!;
    const out = mkdtempSync(join(tmpdir(), 'loam-gen-'));
    try {
      const args = script.split(' ').slice(1).map((a, i, all) => (all[i - 1] === '-O' ? out : a));
      execFileSync(join(ROOT, 'node_modules/.bin/proto-loader-gen-types'), args, { cwd: ROOT, stdio: 'pipe' });
      const want = files(out);
      const have = files(GEN);
      assert.deepEqual([...have.keys()].sort(), [...want.keys()].sort(), 'the same generated files (run npm run gen:proto)');
      for (const [f, text] of want) assert.equal(have.get(f), text, `${relative(ROOT, join(GEN, f))} drifted from the .proto: run npm run gen:proto`);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  test('the loader decodes with the options the types were generated with', () => {
    const script = pkg.scripts['gen:proto']!;
    assert.equal(LOADER_OPTIONS.keepCase, script.includes('--keepCase'));
    assert.equal(LOADER_OPTIONS.longs === Number, script.includes('--longs=Number'));
    assert.equal(LOADER_OPTIONS.enums === String, script.includes('--enums=String'));
    for (const flag of ['defaults', 'oneofs', 'arrays'] as const) assert.equal(LOADER_OPTIONS[flag] === true, script.includes(`--${flag}`), flag);
  });

  test('every MetaStore call has its rpc; the only others are the watch stream, the commitWal batch and its stream', () => {
    const svc = root.lookupService('loam.remote.v1.MetaStore');
    // The dirty set's optional calls too: served when the backend keeps one. Not the optional
    // bulk createNamespaces: the remote client does not offer it, so createNamespacesWith
    // (core/bulk.ts) makes the single calls, each its own rpc.
    const NOT_SERVED = new Set(['watch', 'createNamespaces']);
    const calls = [...CHECKED_METHODS.filter((m) => !NOT_SERVED.has(m)), 'capabilities'].map(rpcName);
    const rpcs = Object.keys(svc.methods);
    assert.deepEqual([...calls, 'WatchChanges', 'CommitWalBatch', 'CommitWalStream'].sort(), rpcs.sort());
    // The stream's batches are the batch rpc's calls and outcomes, with a batch id each way.
    const st = svc.methods.CommitWalStream!;
    assert.equal(st.requestStream && st.responseStream, true, 'CommitWalStream is a bidirectional stream');
    assert.equal(root.lookupType(st.requestType).fields.calls!.type, root.lookupType(svc.methods.CommitWalBatch!.requestType).fields.calls!.type);
    assert.equal(root.lookupType(st.responseType).fields.outcomes!.type, root.lookupType(svc.methods.CommitWalBatch!.responseType).fields.outcomes!.type);
    assert.equal(svc.methods.WatchChanges!.responseStream, true, 'watch is a server stream');
    // The batch is CommitWal's calls and outcomes, nothing of its own: each call is a
    // CommitWalRequest, each outcome the CommitWal result or the ErrorDetail of its refusal.
    const batch = svc.methods.CommitWalBatch!;
    const call = root.lookupType(batch.requestType).fields.calls!;
    assert.equal(call.repeated, true);
    assert.equal(root.lookupType(call.type).fields.call!.type, svc.methods.CommitWal!.requestType);
    const outcomes = root.lookupType(batch.responseType).fields.outcomes!;
    assert.equal(outcomes.repeated, true);
    const outcome = root.lookupType(outcomes.type);
    assert.deepEqual(outcome.oneofsArray.map((o) => o.fieldsArray.map((f) => f.type)), [[svc.methods.CommitWal!.responseType, 'ErrorDetail']]);
  });

  test('every ControlStore call has its rpc, and the service has no other', () => {
    const svc = root.lookupService('loam.remote.v1.ControlStore');
    const client = remoteControlStore({} as RemoteChannel);
    const NAMES: Record<string, string> = { org: 'GetOrg', key: 'GetKey', erasure: 'GetErasure', changesSince: 'ChangesSince' };
    // Namespace keys never cross the wire (spec §9.8): the remote ControlStore refuses them locally.
    const LOCAL_ONLY = new Set(['close', 'createNamespaceKey', 'namespaceKeys', 'destroyNamespaceKeys']);
    const calls = Object.keys(client)
      .filter((k) => !LOCAL_ONLY.has(k))
      .map((k) => NAMES[k] ?? k[0]!.toUpperCase() + k.slice(1));
    assert.deepEqual(calls.sort(), Object.keys(svc.methods).sort());
  });

  test('every union maps to its proto enum both ways, and every enum value but UNSPECIFIED is reached', () => {
    const pairs: [string, EnumCodec<string, string>][] = [
      ['EntityState', codec.ENTITY_STATE],
      ['FieldType', codec.FIELD_TYPE],
      ['IndexEntryKind', codec.INDEX_ENTRY_KIND],
      ['NotClaimedReason', codec.NOT_CLAIMED_REASON],
      ['Transactions', codec.TRANSACTIONS],
      ['ChangeFeed', codec.CHANGE_FEED],
      ['ChangeKind', codec.CHANGE_KIND],
      ['ErrorCode', ERROR_CODE],
      ['Role', controlCodec.ROLE],
      ['QuotaName', controlCodec.QUOTA_NAME],
      ['ControlChangeKind', controlCodec.CONTROL_CHANGE_KIND],
      ['ControlFeedOrder', controlCodec.FEED_ORDER],
    ];
    for (const [name, c] of pairs) {
      const e = root.lookupEnum(`loam.remote.v1.${name}`);
      const values = Object.keys(e.values).filter((v) => !v.endsWith('_UNSPECIFIED'));
      assert.deepEqual(c.values.map((v) => c.toWire(v)).sort(), values.sort(), `${name}: the union's values are the enum's`);
      for (const v of c.values) assert.equal(c.fromWire(c.toWire(v), name), v, `${name}: ${v} round-trips`);
      assert.throws(() => c.fromWire(`${name}_UNSPECIFIED`, name), /must be one of/, `${name}: UNSPECIFIED is refused`);
    }
    assert.equal(wireName('TRANSACTIONS', 'multi-item'), 'TRANSACTIONS_MULTI_ITEM');
    assert.equal(wireName('ERROR_CODE', 'NotFound'), 'ERROR_CODE_NOT_FOUND');
  });

  test('every MetaError code, with every detail, crosses the wire unchanged', () => {
    const details: MetaErrorDetails[] = [
      {},
      { existingId: 42 },
      { currentVersion: null },
      { currentVersion: 7 },
      { currentEpoch: 3, holder: 'node-a', deadline: 1_700_000_000_000 },
      { currentEpoch: 3, holder: null },
      { field: 'schema.fields.x' },
      { limit: 'MAX_ALIAS_ACTIONS', max: 100 },
      { path: 'wal/x' },
      { earlierUnknown: true },
      { reason: 'conflict', beforeSend: true },
    ];
    for (const code of ERROR_CODE.values) {
      for (const d of details) {
        const e = new MetaError(code, `a ${code} for the test`, d);
        const back = metaErrorFromStatus(metaErrorToStatus(e));
        assert.ok(back);
        assert.deepEqual(back.toJSON(), e.toJSON(), `${code} ${JSON.stringify(d)}`);
      }
    }
  });
});
