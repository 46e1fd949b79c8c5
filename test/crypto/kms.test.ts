// The KMS provider against local-kms (spec §9.8): a namespace's KEK is a KMS data key under a
// KMS key made for it; destroying the namespace disables the KMS key and schedules its
// deletion, after which KMS refuses to decrypt — even a copy of the wrapped KEK kept from
// before (a ControlStore backup) no longer opens, and neither do the namespace's WAL chunks,
// while a neighbour namespace in the same WAL object reads fine.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { metaClient } from '../../src/meta/client.js';
import { openEmbedded } from '../../src/meta/backends/embedded/index.js';
import { MemoryStore } from '../../src/store/index.js';
import { openEmbeddedControl } from '../../src/control/embedded.js';
import { LogWriter } from '../../src/log/writer.js';
import { LogReader } from '../../src/log/reader.js';
import { encodeRecord, OP_UPSERT } from '../../src/log/format.js';
import { isDataError } from '../../src/log/errors.js';
import { KmsKeyProvider } from '../../src/crypto/kms.js';
import { KeyRing } from '../../src/crypto/keyring.js';
import { EncryptingStore } from '../../src/crypto/encrypting-store.js';
import { KeyDestroyedError } from '../../src/crypto/provider.js';
import { KMS_TEST_CREDENTIALS, KMS_TEST_REGION, KMS_URL_ENV, startLocalKms } from '../harness/kms.js';
import type { RunningService } from '../harness/services.js';

let own: RunningService | undefined;
async function kmsUrl(): Promise<string> {
  const env = process.env[KMS_URL_ENV];
  if (env) return env;
  own ??= await startLocalKms();
  return own.url;
}
after(async () => own?.stop());

const rec = (k: string, v: string) => encodeRecord({ op: OP_UPSERT, key: k, body: JSON.stringify({ id: k, v }) });

test('KMS provider on local-kms: destroying namespace A (DisableKey + ScheduleKeyDeletion) makes A fail to decrypt, B in the same WAL object reads', async () => {
  const provider = new KmsKeyProvider({ endpoint: await kmsUrl(), region: KMS_TEST_REGION, credentials: KMS_TEST_CREDENTIALS });
  const meta = metaClient(openEmbedded({ path: ':memory:' }));
  const control = openEmbeddedControl(':memory:');
  await control.init();
  const schema = { primaryKey: 'id', fields: { id: 'string' } } as const;
  const a = await meta.createCollection({ ns: (await meta.createNamespace({ org: 'o', name: 'a' })).id, name: 'c', schema, partitions: 1 });
  const b = await meta.createCollection({ ns: (await meta.createNamespace({ org: 'o', name: 'b' })).id, name: 'c', schema, partitions: 1 });
  const ring = new KeyRing({ control, provider, encryptNewNamespaces: true });
  const inner = new MemoryStore();
  const store = new EncryptingStore(inner, ring);
  const w = new LogWriter({ meta, store, nodeId: 't', flushIntervalMs: 30, keys: ring });
  const [ra, rb] = await Promise.all([
    w.append([{ ns: a.ns, stream: a.streamId, partition: 0, records: [rec('a1', 'MARKER-A')] }]),
    w.append([{ ns: b.ns, stream: b.streamId, partition: 0, records: [rec('b1', 'MARKER-B')] }]),
  ]);
  assert.equal(ra.object, rb.object);
  assert.equal((await inner.get(ra.object)).bytes.indexOf('MARKER'), -1);
  const pa = `ns/${a.ns}/c/${a.id}/data/f.ldf`;
  await store.put(pa, Buffer.from('MARKER-A-FILE'));
  const reader = new LogReader(meta, store, undefined, ring);
  assert.equal(JSON.parse((await reader.read(a.ns, a.streamId, 0, 0, 1))[0]!.body.toString()).v, 'MARKER-A');

  const [recA] = await control.namespaceKeys(a.ns);
  assert.equal(recA!.provider, 'kms');
  assert.match(recA!.keyRef, /^arn:aws:kms:/);
  const backup = { ...recA! }; // a copy of the wrapped KEK, as a ControlStore backup would keep it
  assert.equal((await provider.unwrapKek(backup)).length, 32, 'KMS decrypts the wrapped KEK before the destruction');

  await ring.destroy(a.ns);
  await assert.rejects(provider.unwrapKek(backup), KeyDestroyedError, 'KMS refuses to decrypt a kept copy once the key is scheduled for deletion');
  await assert.rejects(reader.read(a.ns, a.streamId, 0, 0, 1), (e) => isDataError(e, 'KeyDestroyed'));
  await assert.rejects(store.get(pa), KeyDestroyedError);
  assert.equal(JSON.parse((await reader.read(b.ns, b.streamId, 0, 0, 1))[0]!.body.toString()).v, 'MARKER-B');
  await w.close();
  ring.close();
  await provider.close();
});
