// The DynamoDB backend's registry entry: dynamodb://[host:port]/table?region=…&profile=…&tls=…
// The table is created when it is missing (idempotent), so a new cluster starts from one URL.
// The SDK is loaded only when such a URL is opened.
import type { BackendDescriptor } from '../descriptor.js';
import { DYNAMO_URL_FORM, dynamoOptionsFromUrl } from './url.js';

export const dynamoDescriptor: BackendDescriptor = {
  name: 'dynamodb',
  schemes: ['dynamodb:'],
  urlForm: DYNAMO_URL_FORM,
  parse(url) {
    dynamoOptionsFromUrl(url);
  },
  async open(url) {
    const { openDynamo } = await import('./index.js');
    const opts = dynamoOptionsFromUrl(url);
    const meta = openDynamo(opts);
    try {
      await meta.createTable();
    } catch (e) {
      await meta.close();
      throw new Error(`cannot use the dynamodb table ${opts.table}: ${(e as Error).message}`);
    }
    return {
      meta,
      connection: { kind: 'dynamodb', client: meta.sdk.client, table: meta.table, profile: meta.profile },
      backend: meta.profile === 'alternator' ? 'alternator' : 'dynamodb',
    };
  },
};
