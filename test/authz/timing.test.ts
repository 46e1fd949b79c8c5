// Spec §6 / issue 8: an unknown key id and a wrong secret must take indistinguishable time,
// so a caller cannot learn which key ids exist. Both paths hash the presented secret and
// compare in constant time (an unknown id against a dummy hash; unknown ids are cached like
// known ones). Measured in process, interleaved (noise hits both kinds alike), medians of
// many calls. Here both medians are about 9.4 µs (ratio 1.00); skipping the hash for an
// unknown id gives 0.82 (the hash is ~1.7 µs of a refusal, whose error object costs more),
// and reading the store for every unknown id is several times slower: the bound catches both.
// `npm run bench -- gateway` shows the same over HTTP.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { parseKey } from '../../src/control/keys.js';
import { resolveConfig } from '../../src/node/config.js';
import { startNode, type LoamNode } from '../../src/node/node.js';

/** Calls timed per kind. */
const PROBES = 4_000;
/** Median ratio allowed either way. */
const MAX_RATIO = 1.1;

let node: LoamNode;
before(async () => {
  node = await startNode(resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', port: 0, auth: 'api_keys', log_level: 'silent' }));
});
after(async () => node?.close());

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

test('an unknown key id and a wrong secret cost the same (medians within 10 %)', async () => {
  const t = node.tenancy!;
  const keyId = parseKey(node.bootstrapKey!)!.keyId;
  let unknownId = randomBytes(8).toString('hex');
  while (unknownId === keyId) unknownId = randomBytes(8).toString('hex');
  const kinds = {
    unknown: () => `Bearer loam_${unknownId}_${randomBytes(32).toString('hex')}`,
    wrong: () => `Bearer loam_${keyId}_${randomBytes(32).toString('hex')}`,
  };
  const once = async (kind: keyof typeof kinds): Promise<number> => {
    const header = kinds[kind]();
    const t0 = process.hrtime.bigint();
    const refused = await t.authenticate(header).then(
      () => false,
      (e: { status?: number }) => e.status === 401,
    );
    const ns = Number(process.hrtime.bigint() - t0);
    assert.ok(refused, `a ${kind} key is refused with 401`);
    return ns;
  };
  for (let i = 0; i < 200; i++) await once(i % 2 ? 'unknown' : 'wrong'); // warm-up: JIT, both ids cached
  const times = { unknown: [] as number[], wrong: [] as number[] };
  for (let i = 0; i < PROBES; i++) {
    const order = i % 2 ? (['unknown', 'wrong'] as const) : (['wrong', 'unknown'] as const);
    for (const k of order) times[k].push(await once(k));
  }
  const ratio = median(times.unknown) / median(times.wrong);
  assert.ok(ratio < MAX_RATIO && ratio > 1 / MAX_RATIO, `median unknown-id ${median(times.unknown)} ns vs wrong-secret ${median(times.wrong)} ns (ratio ${ratio.toFixed(2)})`);
});
