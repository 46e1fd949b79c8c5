// `npm run bench -- store --provider file|s3`: the object store providers against the bare
// calls they are built on, in the same run.
//
//   file: FileStore's create-only put (temp file, fsync, link into place, fsync the directory)
//         and get, against the same fs calls with the same fsync policy, on the same disk;
//   s3:   S3Store's create-only put and get, against bare @aws-sdk/client-s3 PutObject
//         (If-None-Match: *) and GetObject on the same MinIO (started here unless
//         --endpoint or LOAM_TEST_S3_URL names one, with --access-key/--secret-key). The bare
//         client keeps the SDK's default integrity checks (a CRC32 checksum on every put and
//         get), as S3Store checks every put's Content-MD5: both sides pay for integrity.
//
// Prints, per size (4 KiB, 4 MiB) and per operation, `<op>_<size>` in MB/s with the baseline
// and the ratio (target ≥ 0.8), then p50/p99 latencies. Rounds alternate Loam and baseline;
// the rate is the median round's. Objects put in a round are deleted after it (untimed), so a
// long run does not fill the disk.
import { GetObjectCommand, PutObjectCommand, S3Client, CreateBucketCommand } from '@aws-sdk/client-s3';
import { Command, Option } from 'commander';
import { randomBytes } from 'node:crypto';
import { promises as fsp, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FileStore, S3Store, type Store } from '../src/store/index.js';
import { MinioServer } from '../test/store/helpers/minio.js';
import { median, pct, round, timed, type Sample } from './_stats.js';

const SIZES = [
  { name: '4KiB', bytes: 4 * 1024 },
  { name: '4MiB', bytes: 4 * 1024 * 1024 },
] as const;
/** Objects each get round reads from, round-robin (put once, before the get rounds). */
const GET_OBJECTS = 32;

interface Raw {
  put(path: string, bytes: Buffer): Promise<void>;
  get(path: string): Promise<Buffer>;
  remove(prefix: string): Promise<void>;
}

async function fsyncDir(dir: string): Promise<void> {
  const fh = await fsp.open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** The file store's durability recipe with nothing around it. */
function rawFs(root: string): Raw {
  const made = new Set<string>();
  return {
    async put(path, bytes) {
      const target = join(root, path);
      const dir = dirname(target);
      if (!made.has(dir)) {
        await fsp.mkdir(dir, { recursive: true });
        await fsyncDir(dirname(dir));
        made.add(dir);
      }
      const tmp = join(root, `${randomBytes(16).toString('hex')}.tmp`);
      const fh = await fsp.open(tmp, 'wx', 0o644);
      try {
        await fh.write(bytes);
        await fh.sync();
      } finally {
        await fh.close();
      }
      await fsp.link(tmp, target);
      await fsp.unlink(tmp);
      await fsyncDir(dir);
    },
    get: (path) => fsp.readFile(join(root, path)),
    async remove(prefix) {
      await fsp.rm(join(root, prefix), { recursive: true, force: true });
      for (const d of made) if (d.startsWith(join(root, prefix))) made.delete(d);
    },
  };
}

function rawS3(client: S3Client, bucket: string): Raw {
  return {
    async put(path, bytes) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: path, Body: bytes, ContentLength: bytes.length, IfNoneMatch: '*' }));
    },
    async get(path) {
      const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: path }));
      return Buffer.from(await res.Body!.transformToByteArray());
    },
    async remove() {
      // Bare puts go under a prefix of their own, deleted through the Loam store (untimed).
    },
  };
}

async function removeAll(store: Store, prefix: string): Promise<void> {
  let after: string | undefined;
  for (let pages = 0; pages < 100_000; pages++) {
    const page = await store.list(prefix, { limit: 1000, ...(after ? { after } : {}) });
    await Promise.all(page.items.map((o) => store.delete(o.path)));
    if (!page.next) return;
    after = page.next;
  }
}

export async function main(argv: string[]): Promise<void> {
  const o = new Command('bench store')
    .description('Object store providers against the bare calls they make (same run).')
    .addOption(new Option('--provider <p>', 'file or s3').choices(['file', 's3']).default('file'))
    .option('--seconds <n>', 'seconds per round', '2')
    .option('--rounds <n>', 'rounds per side and case (odd: the median is a round)', '5')
    .option('--concurrency <n>', 'operations in flight', '4')
    .option('--dir <path>', 'file provider: the directory to write under (default: a temp dir)')
    .option('--endpoint <url>', 's3 provider: an S3 endpoint instead of starting MinIO')
    .option('--access-key <id>', 's3 provider with --endpoint: access key id')
    .option('--secret-key <secret>', 's3 provider with --endpoint: secret access key')
    .parse(['node', 'store', ...argv])
    .opts<{ provider: 'file' | 's3'; seconds: string; rounds: string; concurrency: string; dir?: string; endpoint?: string; accessKey?: string; secretKey?: string }>();
  const seconds = Number(o.seconds);
  const rounds = Number(o.rounds);
  const concurrency = Number(o.concurrency);
  for (const [k, v] of [['--seconds', seconds], ['--rounds', rounds], ['--concurrency', concurrency]] as const) {
    if (!Number.isFinite(v) || v <= 0 || (k !== '--seconds' && !Number.isInteger(v))) throw new Error(`${k} must be a positive number`);
  }

  let store: Store;
  let raw: Raw;
  const cleanup: Array<() => Promise<void> | void> = [];
  if (o.provider === 'file') {
    const base = o.dir ?? mkdtempSync(join(tmpdir(), 'loam-bench-store-'));
    if (!o.dir) cleanup.push(() => rmSync(base, { recursive: true, force: true }));
    store = new FileStore({ root: join(base, 'loam') });
    raw = rawFs(join(base, 'raw'));
  } else {
    let endpoint = o.endpoint ?? process.env.LOAM_TEST_S3_URL;
    let credentials = o.accessKey && o.secretKey ? { accessKeyId: o.accessKey, secretAccessKey: o.secretKey } : undefined;
    if (!endpoint) {
      const minio = await MinioServer.start();
      cleanup.push(() => minio.stop());
      endpoint = minio.endpoint;
      credentials = minio.credentials;
    }
    const bucket = `bench-${randomBytes(4).toString('hex')}`;
    const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, ...(credentials ? { credentials } : {}) });
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    store = new S3Store({ bucket, endpoint, forcePathStyle: true, region: 'us-east-1', ...(credentials ? { credentials } : {}) });
    raw = rawS3(client, bucket);
    cleanup.push(() => client.destroy());
  }

  const line = (metric: string, value: number, unit: string, baseline: number) =>
    console.log(JSON.stringify({ bench: 'store', provider: o.provider, metric, value: round(value), unit, baseline: round(baseline), ratio: round(value / baseline, 3) }));
  const report = (metric: string, bytes: number, l: Sample, b: Sample) => {
    line(metric, (l.rate * bytes) / 1e6, 'MB/s', (b.rate * bytes) / 1e6);
    line(`${metric}_p50_ms`, pct(l.lat, 50), 'ms', pct(b.lat, 50));
    line(`${metric}_p99_ms`, pct(l.lat, 99), 'ms', pct(b.lat, 99));
  };

  try {
    for (const size of SIZES) {
      const body = randomBytes(size.bytes);
      // put: a fresh prefix per round, removed after it.
      const ls: Sample[] = [];
      const rs: Sample[] = [];
      for (let r = 0; r < rounds; r++) {
        const lp = `bench/put-${size.name}-l${r}`;
        const rp = `bench/put-${size.name}-r${r}`;
        ls.push(await timed(seconds, (i) => store.put(`${lp}/${i}`, body, { ifNoneMatch: '*' }), concurrency));
        rs.push(await timed(seconds, (i) => raw.put(`${rp}/${i}`, body), concurrency));
        await removeAll(store, `${lp}/`);
        await raw.remove(rp);
        if (o.provider === 's3') await removeAll(store, `${rp}/`);
      }
      report(`put_${size.name}`, size.bytes, median(ls), median(rs));

      // get: the same objects read by both sides.
      const gp = `bench/get-${size.name}`;
      for (let i = 0; i < GET_OBJECTS; i++) {
        await store.put(`${gp}/${i}`, body, { ifNoneMatch: '*' });
        if (o.provider === 'file') await raw.put(`${gp}/${i}`, body);
      }
      const lg: Sample[] = [];
      const rg: Sample[] = [];
      // The file store keeps objects under <root>/objects; the raw side reads its own copy.
      for (let r = 0; r < rounds; r++) {
        lg.push(await timed(seconds, (i) => store.get(`${gp}/${i % GET_OBJECTS}`), concurrency));
        rg.push(await timed(seconds, (i) => raw.get(`${gp}/${i % GET_OBJECTS}`), concurrency));
      }
      report(`get_${size.name}`, size.bytes, median(lg), median(rg));
      await removeAll(store, `${gp}/`);
      await raw.remove(gp);
    }
  } finally {
    for (const c of cleanup.reverse()) await c();
  }
}
