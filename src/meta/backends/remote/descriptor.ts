// The remote metastore's registry entry (spec §8):
//   remote://host:port[?cluster=…&cache=true&timeout_ms=…]             plaintext (loopback, a private network)
//   grpcs://host:port[?ca=/ca.pem&cert=/client.pem&key=/client.key&…]  TLS, optionally mTLS
// An agent key is never in the URL (URLs are logged): it comes from LOAM_AGENT_KEY.
import { readFileSync } from 'node:fs';
import type { BackendDescriptor } from '../descriptor.js';
import { registerConnection } from '../connections.js';
import type { RemoteOptions } from './channel.js';
import { urlProblem } from '../../url.js';

/** The environment variable an agent key is read from. */
export const AGENT_KEY_ENV = 'LOAM_AGENT_KEY';

export function remoteOptionsFromUrl(url: string, env: NodeJS.ProcessEnv = process.env): RemoteOptions {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`the remote metastore URL: ${urlProblem(url, 'remote://host:port or grpcs://host:port')}`);
  }
  const tls = u.protocol === 'grpcs:';
  if (!u.hostname || !u.port) throw new Error(`the remote metastore URL needs a host and a port (${tls ? 'grpcs' : 'remote'}://host:port)`);
  if (u.username || u.password) throw new Error('the remote metastore URL takes no credentials: set the agent key in LOAM_AGENT_KEY');
  if (u.pathname && u.pathname !== '/') throw new Error(`the remote metastore URL takes no path (got ${u.pathname})`);
  const opts: RemoteOptions = { target: `${u.hostname.replace(/^\[|\]$/g, '')}:${u.port}` };
  if (u.hostname.startsWith('[')) opts.target = `${u.hostname}:${u.port}`;
  const files: { ca?: Buffer; cert?: Buffer; key?: Buffer } = {};
  for (const [k, v] of u.searchParams) {
    switch (k) {
      case 'cluster':
        opts.cluster = v;
        break;
      case 'cache':
        if (v !== 'true' && v !== 'false') throw new Error(`cache must be true or false; got ${v}`);
        opts.cache = v === 'true';
        break;
      case 'timeout_ms': {
        const n = Number(v);
        if (!Number.isSafeInteger(n) || n < 1 || n > 600_000) throw new Error(`timeout_ms must be an integer in 1..600000; got ${v}`);
        opts.callTimeoutMs = n;
        break;
      }
      case 'ca':
      case 'cert':
      case 'key':
        if (!tls) throw new Error(`${k} is a TLS setting: use grpcs://`);
        try {
          files[k] = readFileSync(v);
        } catch (e) {
          throw new Error(`cannot read the ${k} file ${v}: ${(e as Error).message}`);
        }
        break;
      default:
        throw new Error(`unknown remote metastore URL parameter ${k} (known: cluster, cache, timeout_ms${tls ? ', ca, cert, key' : ''})`);
    }
  }
  if ((files.cert === undefined) !== (files.key === undefined)) throw new Error('cert and key go together (mTLS): give both or neither');
  if (tls) opts.tls = files;
  const agentKey = env[AGENT_KEY_ENV];
  if (agentKey) opts.agentKey = agentKey;
  return opts;
}

export const remoteDescriptor: BackendDescriptor = {
  name: 'remote',
  schemes: ['remote:', 'grpcs:'],
  urlForm: 'remote://host:port or grpcs://host:port[?ca=…&cert=…&key=…] (with ?cluster=…&cache=true&timeout_ms=…)',
  // Reads the TLS files it names too (not LOAM_AGENT_KEY's presence: the server judges the key).
  parse(url) {
    remoteOptionsFromUrl(url);
  },
  async open(url) {
    // Loaded on use, as the other network backends are: gRPC and the generated stubs cost a
    // node on any other backend (both its threads) a fifth of its start.
    const { openRemote } = await import('./client.js');
    const meta = await openRemote(remoteOptionsFromUrl(url));
    const connection = { kind: 'remote' as const, channel: meta.channel };
    registerConnection(meta, connection);
    return { meta, connection, backend: 'remote' };
  },
};
