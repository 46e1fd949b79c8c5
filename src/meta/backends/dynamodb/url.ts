// A dynamodb:// URL read without the SDK (src/node/config.ts reads it with the config).
import { errors } from '../../errors.js';
import { urlProblem } from '../../url.js';
import type { DynamoOptions } from './context.js';

export const DYNAMO_URL_FORM = 'dynamodb://[host:port]/table?region=…&profile=dynamodb|alternator&tls=true|false';
const PROFILES = ['dynamodb', 'alternator'] as const;

/**
 * Options from a metastore URL, so a node can be wired with one setting:
 *   dynamodb://[host:port]/<table>?region=eu-west-1&profile=alternator&tls=false
 * An empty host means AWS's regional endpoint; tls defaults to true unless the host is
 * loopback. Credentials come from the SDK's default provider chain.
 */
export function dynamoOptionsFromUrl(url: string): DynamoOptions {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw errors.invalid('url', urlProblem(url, DYNAMO_URL_FORM));
  }
  if (u.protocol !== 'dynamodb:') throw errors.invalid('url', `must start with dynamodb://, got ${u.protocol}`);
  const table = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_.-]{3,255}$/.test(table)) throw errors.invalid('url', `names no valid table (3-255 of A-Z a-z 0-9 _ . -): ${table}`);
  const profile = u.searchParams.get('profile') ?? 'dynamodb';
  if (!(PROFILES as readonly string[]).includes(profile)) throw errors.invalid('url', `profile must be ${PROFILES.join(' or ')}, got ${profile}`);
  const opts: DynamoOptions = { table, region: u.searchParams.get('region') ?? 'us-east-1', profile: profile as DynamoOptions['profile'] };
  if (u.host) {
    const loopback = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(u.hostname);
    const tls = (u.searchParams.get('tls') ?? (loopback ? 'false' : 'true')) !== 'false';
    opts.endpoint = `${tls ? 'https' : 'http'}://${u.host}`;
  }
  return opts;
}
