// The Postgres backend's registry entry: postgres:// and postgresql:// URLs, connected and
// migrated at open. The driver is loaded only when such a URL is opened.
import type { BackendDescriptor } from '../descriptor.js';
import { checkPostgresUrl, POSTGRES_URL_FORM } from './url.js';

export const postgresDescriptor: BackendDescriptor = {
  name: 'postgres',
  schemes: ['postgres:', 'postgresql:'],
  urlForm: POSTGRES_URL_FORM,
  parse: checkPostgresUrl,
  async open(url, options) {
    checkPostgresUrl(url);
    const { connectPostgres } = await import('./index.js');
    const meta = await connectPostgres({
      url,
      applicationName: options?.applicationName ?? 'loam',
      ...(options?.poolSize !== undefined ? { poolSize: options.poolSize, readPoolSize: options.poolSize } : {}),
    });
    return { meta, connection: { kind: 'postgres', pool: meta.writePool, ready: () => meta.ready() }, backend: 'postgres' };
  },
  async provision(url) {
    const { createDatabase } = await import('./provision.js');
    await createDatabase(url);
  },
};
