// The `loam` command (issue 5 §4). Run through ./loam.mjs (the package's bin), or directly:
//   node --import tsx src/cli/main.ts <command>
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
import { ConfigError, envOverrides, readConfigFile, resolveConfig, sqliteUrl, type NodeConfig } from '../node/config.js';
import { startNode, VERSION, type LoamNode } from '../node/node.js';

/** Where `loam dev` keeps its data unless --data-dir says otherwise. */
export const DEV_DATA_DIR = './.loam';

function port(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > 65_535) throw new InvalidArgumentError('a port is an integer in 0..65535 (0 picks a free port)');
  return n;
}

/** Runs a node until SIGINT/SIGTERM, then shuts it down cleanly. */
async function runUntilSignal(node: LoamNode): Promise<void> {
  await new Promise<void>((done) => {
    const stop = (sig: string) => {
      node.logger.info({ signal: sig }, 'shutting down');
      void node.close().then(done);
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}

function fail(e: unknown): never {
  if (e instanceof ConfigError) console.error(`loam: ${e.message}`);
  else if ((e as { code?: string }).code === 'EADDRINUSE') console.error(`loam: ${(e as Error).message}; pick another --port (0 picks a free one)`);
  else console.error(`loam: ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
}

export function devBanner(url: string, dataDir: string): string {
  return [
    `Loam ${VERSION} (dev: every role in one process, embedded metastore, file store)`,
    `data:      ${dataDir}`,
    `listening: ${url}`,
    ``,
    `Try it:`,
    `  curl -s -X POST ${url}/v1/namespaces -H 'content-type: application/json' -d '{"name":"demo"}'`,
    `  curl -s -X POST ${url}/v1/namespaces/demo/collections -H 'content-type: application/json' -d '{"name":"users","primary_key":"id"}'`,
    `  curl -s -X POST ${url}/v1/namespaces/demo/collections/users/documents -H 'content-type: application/json' -d '{"upserts":[{"id":"u1","name":"Ada"}]}'`,
    `  curl -s ${url}/v1/namespaces/demo/collections/users/documents/u1`,
    `API: ${url}/v1/openapi.json   metrics: ${url}/metrics   health: ${url}/healthz`,
    `Stop with Ctrl-C.`,
  ].join('\n');
}

export function program(): Command {
  const p = new Command()
    .name('loam')
    .description('Loam: a multi-tenant document store and log on object storage.')
    .version(VERSION)
    .showHelpAfterError();

  p.command('dev')
    .description('Run every role in one process on the embedded metastore and a file:// store (for development).')
    .option('--data-dir <dir>', 'where the metastore file and objects live', DEV_DATA_DIR)
    .option('--port <n>', 'port on 127.0.0.1 (0 picks a free port)', port, 7070)
    .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent', 'warn')
    .addHelpText('after', '\nExample:\n  npx loam dev --port 0 --data-dir /tmp/loam\n\nSettings may also come from LOAM_* variables (see `loam serve --help`).')
    .action(async (o: { dataDir: string; port: number; logLevel: string }) => {
      try {
        const dir = resolve(o.dataDir);
        mkdirSync(resolve(dir, 'objects'), { recursive: true });
        const config = resolveConfig(
          { metastore: sqliteUrl(resolve(dir, 'meta.db')), store: pathToFileURL(resolve(dir, 'objects')).href, log_level: o.logLevel },
          envOverrides(),
          { port: o.port },
        );
        const node = await startNode(config);
        console.log(devBanner(node.url, dir));
        await runUntilSignal(node);
      } catch (e) {
        fail(e);
      }
    });

  p.command('serve')
    .description('Run the roles a config file names (log, query, worker) against the metastore and store it names.')
    .requiredOption('--config <file>', 'a JSON config file (see the README: metastore, store, host, port, roles, …)')
    .option('--port <n>', 'override the port', port)
    .addHelpText(
      'after',
      [
        '',
        'Config file (JSON):',
        '  { "metastore": "sqlite:/var/lib/loam/meta.db",       (or postgres://…, dynamodb://…)',
        '    "store": "file:///var/lib/loam/objects",            (or s3://bucket/prefix, memory://)',
        '    "host": "127.0.0.1", "port": 7070, "roles": ["log", "query", "worker"] }',
        'Every setting can be overridden by LOAM_<SETTING> (e.g. LOAM_STORE, LOAM_PORT, LOAM_ROLES=log,query).',
      ].join('\n'),
    )
    .action(async (o: { config: string; port?: number }) => {
      try {
        const config: NodeConfig = resolveConfig(readConfigFile(o.config), envOverrides(), o.port !== undefined ? { port: o.port } : {});
        const node = await startNode(config);
        console.log(`listening: ${node.url}`);
        await runUntilSignal(node);
      } catch (e) {
        fail(e);
      }
    });

  p.command('config-check')
    .description('Validate a config file (and LOAM_* overrides) without starting anything; prints the resolved settings.')
    .requiredOption('--config <file>', 'the JSON config file')
    .action((o: { config: string }) => {
      try {
        const c = resolveConfig(readConfigFile(o.config), envOverrides());
        console.log(JSON.stringify({ ...c, metastore: c.metastore.replace(/\/\/[^@/]*@/, '//…@') }, null, 2));
      } catch (e) {
        fail(e);
      }
    });

  return p;
}

const invokedDirectly = process.argv[1] !== undefined && /(?:^|[/\\])main\.ts$/.test(process.argv[1]);
if (invokedDirectly) {
  await program().parseAsync(process.argv);
}
