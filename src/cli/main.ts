// The `loam` command. Run through ./loam.mjs (the package's bin), or directly:
//   node --import tsx src/cli/main.ts <command>
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command, InvalidArgumentError, Option } from 'commander';
import { MAX_PAGE_LIMIT } from '../meta/limits.js';
// The node, the backends and the config's defaults load only in the commands that use them
// (dynamic imports below): a client command such as `loam docs get` or any `--help` then
// starts in about a third of the time, since it never loads the drivers of every backend.
import type { NodeConfig } from '../node/config.js';
import { ConfigError } from '../node/config-error.js';
import { shownConfig } from '../node/shown-config.js';
import { bootstrapOperatorKey, OPERATOR_KEY_ENV } from '../node/operator-key.js';
import type { LoamNode } from '../node/node.js';
import { VERSION } from '../node/version.js';
import type { Catalog } from '../collection/catalog.js';
import { MAX_USAGE_ROWS, OPERATOR_ORG, OPERATOR_ROLE, QUOTA_BOUNDS, QUOTA_NAMES, ROLES, type ControlStore, type QuotaName, type RoleName, type UsageRollup } from '../control/types.js';
import { usageCursor } from '../control/rules.js';
import type { Tenancy } from '../authz/tenancy.js';
import { MAX_KEY_TTL_S } from '../authz/operations.js';
import { USAGE_METRICS } from '../quota/usage.js';
import { dataCommands } from './data.js';
import { shardCommands } from './shards.js';
import { moveCommands } from './moves.js';
import { erasureCommands } from './erasure.js';
import { placementCommand } from './placement.js';
import { namespaceKeyCommands } from './namespace-keys.js';
import { addExamples } from './examples.js';
import { clusterCommands, controlPlaneCommand } from './control-plane.js';
import { prepareDataDir } from './data-dir.js';
import { exitQuietlyWhenReaderCloses } from './pipes.js';
import { shortUsageErrors } from './usage.js';

/** Where `loam dev` keeps its data unless --data-dir says otherwise. */
export const DEV_DATA_DIR = './.loam';
/** The file in a `loam dev` data dir that holds its erasure-log key-encryption key (mode 0600). */
export const DEV_ERASURE_KEK_FILE = 'erasure.kek';
/** Where `loam serve` writes the first operator key (mode 0600) unless told otherwise. */
export const DEFAULT_OPERATOR_KEY_FILE = './loam-operator.key';
export { OPERATOR_KEY_ENV };

const OPERATOR_HELP = [
  '',
  'Keys and roles:',
  `  The operator (role "${OPERATOR_ROLE}") is the deployment's own admin: it creates orgs and sets their`,
  "  quotas (POST /v1/orgs, PUT /v1/orgs/<org>/quotas) and reads no org's data. No org key can hold or",
  "  grant that role. An org admin manages its org's namespaces, keys and role bindings and reads its",
  '  quotas and usage. A key creates keys and grants roles only within its own scopes and roles,',
  '  and confers nothing that outlives its own expiry.',
].join('\n');

function port(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > 65_535) throw new InvalidArgumentError('a port is an integer in 0..65535 (0 picks a free port)');
  return n;
}

/** Runs a node until SIGINT/SIGTERM, then shuts it down cleanly. */
async function runUntilSignal(node: LoamNode): Promise<void> {
  // This process is the node's: it hands memory back when the node idles (the worker thread
  // does the same in its own isolate).
  const { startIdleCollector } = await import('../node/idle-memory.js');
  const idle = startIdleCollector();
  await new Promise<void>((done) => {
    const stop = (sig: string) => {
      node.logger.info({ signal: sig }, 'shutting down');
      idle.stop();
      void node.close().then(done);
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}

/** Writes a secret to a new file only its owner can read (refusing to replace one). */
function writeSecret(file: string, secret: string): void {
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
}

function fail(e: unknown): never {
  if (e instanceof ConfigError) console.error(`loam: ${e.message}`);
  else if ((e as { code?: string }).code === 'EADDRINUSE') console.error(`loam: ${(e as Error).message}; pick another --port (0 picks a free one)`);
  else console.error(`loam: ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
}

/**
 * loam dev's erasure-log key-encryption key: made once, kept in the data dir (mode 0600), so
 * erasure works out of the box in development. A deployment sets erasure_kek itself.
 */
export function devErasureKek(dir: string): string {
  const path = resolve(dir, DEV_ERASURE_KEK_FILE);
  let kek: string;
  try {
    if (!existsSync(path)) writeFileSync(path, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    kek = readFileSync(path, 'utf8').trim();
  } catch (e) {
    throw new ConfigError('erasure_kek', `is read from ${path}, which cannot be read or made (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (!/^[0-9a-fA-F]{64}$/.test(kek)) throw new ConfigError('erasure_kek', `is read from ${path}, which does not hold 64 hex digits (restore it from a backup of the data dir)`);
  return kek;
}

/** The settings as config-check shows them: secrets masked, and every URL's credentials. */
export { shownConfig };

export function devBanner(url: string, dataDir: string, key: string | null = null, operatorKey: string | null = null): string {
  const auth = `-H "Authorization: Bearer $LOAM_KEY"`;
  return [
    ...(key || operatorKey
      ? [
          `First start: created these API keys. They are shown ONCE, here; store them now:`,
          ``,
          ...(key ? [`  # the admin of org "default": its namespaces, collections, keys and roles`, `  export LOAM_KEY=${key}`] : []),
          ...(operatorKey ? [`  # the operator (the deployment's admin): creates orgs, sets quotas; reads no org's data`, `  export LOAM_OPERATOR_KEY=${operatorKey}`] : []),
          ``,
        ]
      : []),
    `Loam ${VERSION} (dev: every role in one process, embedded metastore, file store)`,
    `data:      ${dataDir}`,
    `listening: ${url}`,
    ``,
    `Try it:`,
    `  curl -s -X POST ${url}/v1/namespaces ${auth} -H 'content-type: application/json' -d '{"name":"demo"}'`,
    `  curl -s -X POST ${url}/v1/namespaces/demo/collections ${auth} -H 'content-type: application/json' -d '{"name":"users","primary_key":"id"}'`,
    `  curl -s -X POST ${url}/v1/namespaces/demo/collections/users/documents ${auth} -H 'content-type: application/json' -d '{"upserts":[{"id":"u1","name":"Ada"}]}'`,
    `  curl -s ${url}/v1/namespaces/demo/collections/users/documents/u1 ${auth}`,
    `More keys: loam keys create --data-dir ${dataDir} --role writer   (or POST /v1/keys with an admin key)`,
    `Quotas:    curl -s -X PUT ${url}/v1/orgs/default/quotas -H "Authorization: Bearer $LOAM_OPERATOR_KEY" -H 'content-type: application/json' -d '{"name":"request_rate","value":5000}'`,
    `API: ${url}/v1/openapi.json   health: ${url}/healthz`,
    `Stop with Ctrl-C.`,
  ].join('\n');
}

export function program(): Command {
  const p = new Command()
    .name('loam')
    .description('Loam: a multi-tenant document store and log on object storage.')
    .version(VERSION)
    .addHelpText('after', OPERATOR_HELP);

  p.command('dev')
    .description('Run every role in one process on the embedded metastore and a file:// store (for development).')
    .option('--data-dir <dir>', 'where the metastore file and objects live', DEV_DATA_DIR)
    .option('--port <n>', 'port on 127.0.0.1 (0 picks a free port)', port, 7070)
    .option('--metrics-port <n>', "the /metrics listener's port (default: --port + 1, so a second `loam dev --port N` starts beside the first; 0 picks a free port)", port)
    .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent', 'warn')
    .addHelpText(
      'after',
      [
        '',
        'On its first start it prints two API keys, once, on stdout (never in the log): LOAM_KEY, the admin',
        'of org "default", and LOAM_OPERATOR_KEY, the operator (creates orgs and sets quotas).',
        '',
        'Example:',
        '  npx loam dev --port 0 --data-dir /tmp/loam',
        '',
        'Settings may also come from LOAM_* variables (see `loam serve --help`).',
      ].join('\n'),
    )
    .action(async (o: { dataDir: string; port: number; metricsPort?: number; logLevel: string }) => {
      try {
        const dir = resolve(o.dataDir);
        prepareDataDir(dir, ['objects']);
        const { envOverrides, resolveConfig, sqliteUrl } = await import('../node/config.js');
        const { startNode } = await import('../node/node.js');
        // Next to the API's port unless asked (LOAM_METRICS_PORT, --metrics-port): two dev nodes on two ports do not share one.
        const metricsPort = o.port === 0 || o.port === 65_535 ? 0 : o.port + 1;
        const config = resolveConfig(
          { metastore: sqliteUrl(resolve(dir, 'meta.db')), store: pathToFileURL(resolve(dir, 'objects')).href, log_level: o.logLevel, auth: 'api_keys', erasure_kek: devErasureKek(dir), metrics_port: metricsPort },
          envOverrides(),
          { port: o.port, ...(o.metricsPort !== undefined ? { metrics_port: o.metricsPort } : {}) },
        );
        const node = await startNode(config);
        // The bootstrap keys go to stdout once, never to the logs (development only).
        console.log(devBanner(node.url, dir, node.bootstrapKey, node.operatorKey));
        console.log(`metrics:   ${node.metricsUrl} (Prometheus; this listener takes no API key)`);
        console.log(`status:    ${node.url}/ui (the status page: sign in with one of the keys above)`);
        await runUntilSignal(node);
      } catch (e) {
        fail(e);
      }
    });

  p.command('serve')
    .description('Run the roles a config file names (log, query, worker) against the metastore and store it names.')
    .requiredOption('--config <file>', 'a JSON config file (see the README: metastore, store, host, port, roles, …)')
    .option('--port <n>', 'override the port', port)
    .option('--operator-key-file <file>', 'with auth api_keys: where the first start writes the operator key (mode 0600; it must not exist)', DEFAULT_OPERATOR_KEY_FILE)
    .addHelpText(
      'after',
      [
        '',
        'With auth "api_keys", the first start creates the operator key (the deployment\'s admin: creates',
        'orgs, sets quotas) and writes it to --operator-key-file with mode 0600, printing only the path;',
        `or, with ${OPERATOR_KEY_ENV}=loam_<key_id>_<secret> set, installs that key instead and writes nothing.`,
        'No secret is ever written to stdout or the log. Then: POST /v1/orgs {"id":"acme"} with the operator',
        'key creates an org and returns its first admin key (or `loam orgs create acme --config <file>`).',
        '',
        'Config file (JSON):',
        '  { "metastore": "sqlite:/var/lib/loam/meta.db",       (or postgres://…, dynamodb://…)',
        '    "store": "file:///var/lib/loam/objects",            (or s3://bucket/prefix, memory://)',
        '    "host": "127.0.0.1", "port": 7070, "roles": ["log", "query", "worker"] }',
        'Every setting can be overridden by LOAM_<SETTING> (e.g. LOAM_STORE, LOAM_PORT, LOAM_ROLES=log,query).',
        'A BYOC data plane: metastore "grpcs://<control plane>:7443?cluster=<id>&ca=<file>" (remote:// for',
        'plaintext on loopback or a private network) with its agent key in LOAM_AGENT_KEY (docs/byoc.md).',
        '',
        "Memory (docs/operations.md, sizing a node): a node needs about 512 MiB + cache_bytes (default 64 MiB).",
        'write_inflight_bytes (default 4 MiB) bounds the write bodies it holds at once; a write beyond it waits',
        'up to write_queue_timeout_ms (default 5000), then is refused with 503 overloaded, having written nothing.',
      ].join('\n'),
    )
    .action(async (o: { config: string; port?: number; operatorKeyFile: string }) => {
      try {
        const { envOverrides, readConfigFile, resolveConfig } = await import('../node/config.js');
        const { startNode } = await import('../node/node.js');
        const config: NodeConfig = resolveConfig(readConfigFile(o.config), envOverrides(), o.port !== undefined ? { port: o.port } : {});
        // Read with the config: a malformed key stops the start before anything is opened or written.
        const given = bootstrapOperatorKey();
        // No org, hence no org admin key: the operator creates orgs (spec §6's bootstrap, without a secret on stdout).
        const node = await startNode(config, { bootstrap: { org: null, ...(given ? { operatorKey: given } : {}) } });
        if (node.operatorKey) {
          const file = resolve(o.operatorKeyFile);
          try {
            writeSecret(file, node.operatorKey);
          } catch (e) {
            // A key nobody holds is revoked, so the next start makes another.
            await node.tenancy!.revokeKey(OPERATOR_ORG, /^loam_([0-9a-f]{16})_/.exec(node.operatorKey)![1]!, 'bootstrap');
            await node.close();
            throw new Error(`could not write the operator key to ${file} (${(e as Error).message}); it was revoked. Fix --operator-key-file (a new file in a writable directory) and start again`);
          }
          console.log(`first start: created the operator key and wrote it to ${file} (mode 0600); move it somewhere safe and delete the file`);
        }
        console.log(`listening: ${node.url}`);
        console.log(`metrics:   ${node.metricsUrl}`);
        if (node.config.auth === 'api_keys') console.log(`status:    ${node.url}/ui (the status page: sign in with an API key)`);
        await runUntilSignal(node);
      } catch (e) {
        fail(e);
      }
    });

  p.command('config-check')
    .description('Validate a config file (and LOAM_* overrides) without starting anything; prints the resolved settings.')
    .requiredOption('--config <file>', 'the JSON config file')
    .action(async (o: { config: string }) => {
      try {
        const { envOverrides, readConfigFile, resolveConfig } = await import('../node/config.js');
        const c = resolveConfig(readConfigFile(o.config), envOverrides());
        bootstrapOperatorKey();
        // What serve would need on this host and not make: an embedded metastore file's directory.
        (await import('../node/backends.js')).preflightMetastore(c.metastore);
        console.log(JSON.stringify(shownConfig(c), null, 2));
      } catch (e) {
        fail(e);
      }
    });

  dataCommands(p);
  shardCommands(p);
  moveCommands(p);
  erasureCommands(p);
  placementCommand(p);
  namespaceKeyCommands(p);
  tenancyCommands(p);
  controlPlaneCommand(p);
  clusterCommands(p);
  addExamples(p);
  shortUsageErrors(p);
  return p;
}

/** The operator's view: the config's (or dev data dir's) metastore, opened directly. */
async function withControl<T>(o: { config?: string; dataDir?: string }, fn: (t: Tenancy, cs: ControlStore, catalog: Catalog) => Promise<T>): Promise<T> {
  const [{ envOverrides, readConfigFile, resolveConfig, sqliteUrl }, { openMetastore }, { controlStoreFor }, { Catalog }, { BuiltinAuthorizer }, { Tenancy }, { pino }] = await Promise.all([
    import('../node/config.js'),
    import('../node/backends.js'),
    import('../control/index.js'),
    import('../collection/catalog.js'),
    import('../authz/authorizer.js'),
    import('../authz/tenancy.js'),
    import('pino'),
  ]);
  let config: NodeConfig;
  if (o.config) config = resolveConfig(readConfigFile(o.config), envOverrides());
  else {
    // A data dir that is not there is a mistake (a wrong cwd, a missing flag), not a metastore to begin.
    const dir = resolve(o.dataDir ?? DEV_DATA_DIR);
    if (!existsSync(dir)) throw new ConfigError('--data-dir', `${dir} does not exist: pass --data-dir <a loam dev data dir> or --config <the node's config file>`);
    config = resolveConfig({ metastore: sqliteUrl(resolve(dir, 'meta.db')), store: 'memory://' }, envOverrides());
  }
  const { meta } = await openMetastore(config.metastore);
  // A node running OpenFGA delivers what these commands change through the outbox (spec §7).
  const cs = await controlStoreFor(meta, { outbox: config.authorizer === 'openfga' });
  const catalog = new Catalog(meta);
  const authz = new BuiltinAuthorizer(cs);
  const t = new Tenancy({
    control: cs,
    authorizer: authz,
    catalog,
    meta,
    logger: pino({ level: 'silent' }),
    quotaDefaults: { unapplied_records: config.backlog_max_records, unapplied_bytes: config.backlog_max_bytes },
  });
  try {
    return await fn(t, cs, catalog);
  } finally {
    await cs.close();
    await meta.close();
  }
}

/** Pages a CLI list follows, at most (every loop a bound); beyond it the list says it stopped. */
export const MAX_CLI_LIST_PAGES = 100;

/** Every item of a paged list, following its cursor. */
async function allPages<T>(page: (after: string | undefined) => Promise<{ items: T[]; next?: string }>): Promise<T[]> {
  const out: T[] = [];
  let after: string | undefined;
  for (let i = 0; i < MAX_CLI_LIST_PAGES; i++) {
    const p = await page(after);
    out.push(...p.items);
    if (!p.next) return out;
    after = p.next;
  }
  console.error(`loam: showing the first ${out.length} items (${MAX_CLI_LIST_PAGES} pages); there are more`);
  return out;
}

function tenancyCommands(p: Command): void {
  const where = (c: Command) =>
    c.option('--config <file>', 'the node config file (its metastore)').option('--data-dir <dir>', `a loam dev data dir (default ${DEV_DATA_DIR})`);
  const run = (fn: (o: Record<string, string>) => Promise<unknown>) => async (o: Record<string, string>) => {
    try {
      const out = await fn(o);
      if (out !== undefined) console.log(typeof out === 'string' ? out : JSON.stringify(out, null, 2));
    } catch (e) {
      if ((e as { code?: string }).code && (e as Error).message) {
        console.error(`loam: ${(e as Error).message}`);
        process.exit(1);
      }
      fail(e);
    }
  };
  const nsId = async (catalog: Catalog, org: string, ns?: string) => (ns ? (await catalog.namespace(org, ns)).id : undefined);

  const orgs = p.command('orgs').description('Create and list orgs (tenants).');
  where(orgs.command('create').argument('<org>').description('Create an org and print its first admin key (shown once).')).action((org: string, o: Record<string, string>) =>
    run(() => withControl(o, async (t) => {
      const k = await t.ops.createOrgWithAdmin(org, 'cli');
      return `org "${org}" created; its admin key (shown once, store it now):\n${k.token}`;
    }))(o),
  );
  where(orgs.command('list').description('List orgs.')).action(
    run((o) => withControl(o, async (_t, cs) => allPages((after) => cs.listOrgs({ limit: MAX_PAGE_LIMIT, ...(after ? { after } : {}) })))),
  );

  const keys = p.command('keys').description('Create, list and revoke API keys.');
  where(
    keys
      .command('create')
      .description(`Create an API key (printed once). --role ${OPERATOR_ROLE} creates an operator key (no --org).`)
      .option('--org <org>', 'the org', 'default')
      .option('--role <role>', `${ROLES.join(', ')}, or ${OPERATOR_ROLE}`, 'reader')
      .option('--namespace <ns>', 'grant the role on this namespace only')
      .option('--scopes <list>', 'comma-separated: *, read, write, admin, ns:<name>', '*')
      .option('--ttl <seconds>', `expire after this many seconds (1 to ${MAX_KEY_TTL_S})`, keyTtl),
  ).action(
    run((o) =>
      withControl(o, async (t, _cs, catalog) => {
        const org = o.role === OPERATOR_ROLE ? OPERATOR_ORG : o.org!;
        const ns = await nsId(catalog, org, o.namespace);
        const k = await t.createKey({
          org,
          role: o.role as RoleName,
          ...(ns !== undefined ? { ns } : {}),
          scopes: o.scopes!.split(',').map((s) => s.trim()),
          ...(o.ttl !== undefined ? { ttlS: Number(o.ttl) } : {}),
          createdBy: 'cli',
        });
        return k.token;
      }),
    ),
  );
  where(keys.command('list').option('--org <org>', 'the org', 'default').description('List an org\'s keys (never their secrets).')).action(
    run((o) => withControl(o, async (_t, cs) => allPages((after) => cs.listKeys(o.org!, { limit: MAX_PAGE_LIMIT, ...(after ? { after } : {}) })))),
  );
  where(keys.command('revoke').argument('<key_id>').option('--org <org>', 'the org', 'default').description('Revoke a key (every node refuses it within a second).')).action(
    (id: string, o: Record<string, string>) => run(() => withControl(o, async (t) => t.revokeKey(o.org!, id, 'cli').then(() => `revoked ${id}`)))(o),
  );

  const roles = p.command('roles').description('Grant and revoke roles of keys.');
  for (const verb of ['grant', 'revoke'] as const) {
    where(
      roles
        .command(verb)
        .description(
          verb === 'grant'
            ? 'Grant a role to a key, on the org or on one namespace (every node sees it within a second).'
            : 'Revoke a role a key was granted (every node refuses what it allowed within a second).',
        )
        .argument('<key_id>')
        .requiredOption('--role <role>', 'org_admin, namespace_admin, writer or reader')
        .option('--org <org>', 'the org', 'default')
        .option('--namespace <ns>', 'on this namespace (default: the whole org)'),
    ).action((id: string, o: Record<string, string>) =>
      run(() =>
        withControl(o, async (_t, cs, catalog) => {
          const ns = await nsId(catalog, o.org!, o.namespace);
          const b = { org: o.org!, subject: `key:${id}`, role: o.role as RoleName, target: ns === undefined ? ({ kind: 'org' } as const) : ({ kind: 'namespace', ns } as const) };
          if (verb === 'grant') return cs.grant(b);
          await cs.revokeGrant(b);
          return `revoked ${o.role} of ${id}`;
        }),
      )(o),
    );
  }

  const quotas = p.command('quotas').description('Show and set quotas (defaults, per-org and per-namespace overrides).');
  where(quotas.command('show').description('Show the defaults, the overrides and the effective values of an org (or one namespace).').option('--org <org>', 'the org', 'default').option('--namespace <ns>', 'effective values for this namespace')).action(
    run((o) =>
      withControl(o, async (t, cs, catalog) => {
        await cs.org(o.org!); // an unknown org is an error, not a page of defaults
        const ns = (await nsId(catalog, o.org!, o.namespace)) ?? null;
        const effective: Record<string, number> = {};
        for (const n of QUOTA_NAMES) effective[n] = await t.quotas.value(o.org!, ns, n);
        return { defaults: t.quotas.defaults, bounds: QUOTA_BOUNDS, effective, overrides: await cs.quotas(o.org!) };
      }),
    ),
  );
  where(
    quotas
      .command('set')
      .description('Override a quota for an org, or for one namespace with --namespace ("default" clears the override); values stay within each quota\'s bounds (`quotas show` lists them).')
      .argument('<name>', QUOTA_NAMES.join(', '))
      .argument('<value>', 'a number, or "default" to clear the override')
      .option('--org <org>', 'the org', 'default')
      .option('--namespace <ns>', 'override for this namespace only'),
  ).action((name: string, value: string, o: Record<string, string>) =>
    run(() =>
      withControl(o, async (_t, cs, catalog) => {
        await cs.org(o.org!); // no override for an org that does not exist
        const ns = (await nsId(catalog, o.org!, o.namespace)) ?? null;
        await cs.setQuota(o.org!, ns, name as QuotaName, value === 'default' ? null : Number(value));
        return `${name} = ${value}`;
      }),
    )(o),
  );
  where(
    p
      .command('usage')
      .description('Show usage rollups of an org: requests and ingest bytes per namespace and hour, stored bytes and unapplied records per namespace.')
      .option('--org <org>', 'the org', 'default')
      .addOption(new Option('--metric <metric>', 'only this metric').choices([...USAGE_METRICS]))
      .option('--since <ms>', 'only windows starting at or after this (epoch ms)'),
  ).action(
    run((o) =>
      withControl(o, async (_t, cs) => {
        await cs.org(o.org!);
        const since = o.since === undefined ? undefined : Number(o.since);
        if (since !== undefined && !(Number.isSafeInteger(since) && since >= 0)) throw Object.assign(new Error(`--since must be epoch milliseconds; got ${o.since}`), { code: 'InvalidArgument' });
        // Every page (the store answers MAX_USAGE_ROWS at a time), up to MAX_USAGE_ROWS_SHOWN rows.
        const rows: UsageRollup[] = [];
        for (let after: string | undefined; rows.length < MAX_USAGE_ROWS_SHOWN; ) {
          const page = await cs.usage(o.org!, { ...(o.metric ? { metric: o.metric } : {}), ...(since !== undefined ? { since } : {}), limit: MAX_USAGE_ROWS, ...(after ? { after } : {}) });
          rows.push(...page);
          if (page.length < MAX_USAGE_ROWS) return rows;
          after = usageCursor(page.at(-1)!);
        }
        process.stderr.write(`loam usage: showing the first ${MAX_USAGE_ROWS_SHOWN} rows; narrow with --metric or --since\n`);
        return rows;
      }),
    ),
  );
}

/** --ttl: whole seconds within a key's longest life, checked before anything is opened. */
function keyTtl(v: string): string {
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > MAX_KEY_TTL_S) throw new InvalidArgumentError(`a key lives 1 to ${MAX_KEY_TTL_S} whole seconds`);
  return v;
}

/** Rows `loam usage` prints at most (every loop a bound): narrow a larger org's with --metric or --since. */
export const MAX_USAGE_ROWS_SHOWN = 100_000;

/** Runs the `loam` command line (the bin's and a direct run's entry; tests build `program()` alone). */
export async function main(argv: string[]): Promise<void> {
  exitQuietlyWhenReaderCloses(argv[2]);
  await program().parseAsync(argv);
}

const invokedDirectly = process.argv[1] !== undefined && /(?:^|[/\\])main\.ts$/.test(process.argv[1]);
if (invokedDirectly) {
  await main(process.argv);
}
