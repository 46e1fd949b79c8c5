// A `loam serve` for the crash gate's kills at chosen points (issue 22): the same config and
// output as `loam serve --config <file>`, but the node is given its metastore wrapped by a
// test hook. With LOAM_TEST_PAUSE_AT set, the node stops at that point, prints
// `paused at <point>: <path>` on stderr and waits there, so the test SIGKILLs it exactly
// mid-apply, mid-segment or mid-GC rather than at a time that only usually lands there:
//
//   apply    the new manifest is in the store; its casPointer is not sent
//   segment  the segment object is in the store; its swapSegment is not sent
//   gc       GC's claim on an object is committed; the object is not yet deleted
//
// Production code has no such hook: the wrapping happens here, through startNode's `meta`.
import { pino } from 'pino';
import { parseLinkPointerKey, type MetaStore } from '../../src/meta/index.js';
import { openMetastore } from '../../src/node/backends.js';
import { envOverrides, readConfigFile, resolveConfig } from '../../src/node/config.js';
import { startNode } from '../../src/node/node.js';

export const PAUSE_POINTS = ['apply', 'segment', 'gc'] as const;
export type PausePoint = (typeof PAUSE_POINTS)[number];
/** A paused node that is not killed goes on after this (every wait has a deadline). */
const PAUSE_DEADLINE_MS = 120_000;

function pauseAt(point: PausePoint, path: string): Promise<void> {
  process.stderr.write(`paused at ${point}: ${path}\n`);
  return new Promise((r) => setTimeout(r, PAUSE_DEADLINE_MS));
}

function hooked(raw: MetaStore, point: PausePoint): MetaStore {
  let paused = false;
  const once = () => !paused && (paused = true);
  return Object.assign(Object.create(raw) as MetaStore, {
    async casPointer(...a: Parameters<MetaStore['casPointer']>) {
      if (point === 'apply' && parseLinkPointerKey(a[1]) !== null && once()) await pauseAt('apply', a[3]);
      return raw.casPointer(...a);
    },
    async swapSegment(...a: Parameters<MetaStore['swapSegment']>) {
      if (point === 'segment' && once()) await pauseAt('segment', a[0].path);
      return raw.swapSegment(...a);
    },
    async claimObject(...a: Parameters<MetaStore['claimObject']>) {
      const r = await raw.claimObject(...a);
      if (point === 'gc' && r.claimed && once()) await pauseAt('gc', a[0]);
      return r;
    },
  });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const file = args[args.indexOf('--config') + 1];
  if (args[0] !== 'serve' || !file) {
    console.error('usage: hooked-node.ts serve --config <file>   (LOAM_TEST_PAUSE_AT=apply|segment|gc)');
    process.exit(2);
  }
  const point = process.env.LOAM_TEST_PAUSE_AT as PausePoint | undefined;
  if (point !== undefined && !PAUSE_POINTS.includes(point)) {
    console.error(`LOAM_TEST_PAUSE_AT must be one of ${PAUSE_POINTS.join(', ')}; got ${point}`);
    process.exit(2);
  }
  const config = resolveConfig(readConfigFile(file), envOverrides());
  const { meta } = await openMetastore(config.metastore);
  const node = await startNode(config, { meta: point ? hooked(meta, point) : meta, logger: pino({ level: config.log_level }) });
  console.log(`listening: ${node.url}`);
  console.log(`metrics:   ${node.metricsUrl}`);
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void node.close().then(() => process.exit(0)));
}

if (process.argv[1] !== undefined && /hooked-node\.ts$/.test(process.argv[1])) await main();
