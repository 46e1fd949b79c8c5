// Hostile input over the wire (spec §8, "Bad input"): every RPC of both services is
// called with seeded random requests — ids, offsets and stamps at the int64 extremes, strings
// empty, huge, with NULs and lone surrogates, enums out of range, repeated fields long and
// short — and with the bytes of such requests mutated. The server must answer every one with a
// typed status (never an "internal error", its defect path), stay up, and keep its store whole.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { served, type Served } from './helpers.js';
import { fuzzServer } from '../harness/wire-fuzz.js';

/** Requests per RPC: encoded from random values, and the same bytes mutated. */
const PER_METHOD = Number(process.env.LOAM_FUZZ_PER_METHOD ?? 24);
const SEED = Number(process.env.LOAM_FUZZ_SEED ?? 1);

const id = (b: Buffer) => b;

describe('remote: fuzzed requests', () => {
  let s: Served;
  after(() => s?.close());

  test(`every RPC (unary and streaming) answers ${PER_METHOD} random and mutated requests each with a typed status, and the server stays whole (seed ${SEED})`, async () => {
    s = await served();
    // Something for fuzzed small ids to find.
    const c = await s.client();
    const ns = await c.createNamespace({ org: 'default', name: 'n' });
    await c.createCollection({ ns: ns.id, name: 'c', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 2 });
    const { calls, defects } = await fuzzServer(s.port, PER_METHOD, SEED);
    assert.deepEqual(defects, [], `${defects.length} of ${calls} fuzzed calls hit the server's defect path`);
    // Still serving, and its store whole.
    assert.equal((await c.namespaceByName('default', 'n'))?.id, ns.id);
    assert.equal(s.inner.db.pragma('integrity_check', { simple: true }), 'ok');
  });

  test('an undecodable request is refused INVALID_ARGUMENT naming its method, on a unary call and on the commitWal stream; nothing is applied', async () => {
    const raw = new grpc.Client(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure());
    const v = await s.inner.catalogVersion();
    // Field 15 (no request has it) with wire type 7, which protobuf does not have: a decoder cannot skip it.
    const garbage = Buffer.from([0x7f, 0x00]);
    const e = await new Promise<grpc.ServiceError | null>((resolve) =>
      raw.makeUnaryRequest('/loam.remote.v1.MetaStore/CreateNamespace', id, id, garbage, new grpc.Metadata(), { deadline: Date.now() + 10_000 }, (err) => resolve(err)),
    );
    assert.equal(e?.code, grpc.status.INVALID_ARGUMENT, e?.message);
    assert.match(e!.details, /not a valid message for \/loam\.remote\.v1\.MetaStore\/CreateNamespace.*nothing was applied/);
    const stream = raw.makeBidiStreamRequest('/loam.remote.v1.MetaStore/CommitWalStream', id, id, new grpc.Metadata(), { deadline: Date.now() + 10_000 });
    const status = new Promise<grpc.StatusObject>((resolve) => stream.on('status', resolve));
    stream.on('error', () => undefined);
    stream.on('data', () => undefined);
    stream.write(garbage);
    const st = await status;
    assert.equal(st.code, grpc.status.INVALID_ARGUMENT, st.details);
    assert.match(st.details, /CommitWalStream/);
    assert.equal(await s.inner.catalogVersion(), v, 'nothing applied');
    raw.close();
  });
});
