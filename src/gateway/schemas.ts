// The HTTP API's schemas: the SAME objects validate requests (fastify/ajv) and generate the
// OpenAPI document at /v1/openapi.json, so the two cannot drift.
import { MAX_NAME_LENGTH, MAX_PARTITIONS, NAME_PATTERN, MAX_PAGE_LIMIT, DEFAULT_PAGE_LIMIT } from '../meta/limits.js';
import { MAX_BATCH_DOCS } from '../collection/writer.js';
import { MAX_LEGACY_TOKEN_LENGTH, MAX_TOKEN_LENGTH } from '../meta/token.js';
import { MAX_QUERY_LIMIT, DEFAULT_QUERY_LIMIT, MAX_QUERY_PAGE_BYTES } from '../collection/reader.js';
import { MAX_LOG_RETENTION_BYTES, MAX_LOG_RETENTION_MS, MIN_LOG_RETENTION_BYTES, MIN_LOG_RETENTION_MS } from '../collection/retention.js';
import { DEFAULT_COLLECTION_LOG_RETENTION_MS } from '../meta/limits.js';
import { MAX_ERASE_KEYS } from '../erasure/record.js';
import { ERASURE_ID_PATTERN, MAX_ERASURE_PAGE } from '../control/types.js';

/** Partitions of a new collection unless the request says otherwise. */
export const DEFAULT_COLLECTION_PARTITIONS = 4;

const name = { type: 'string', minLength: 1, maxLength: MAX_NAME_LENGTH, pattern: NAME_PATTERN.source } as const;
const scalarKey = { anyOf: [{ type: 'string', minLength: 1 }, { type: 'number' }] } as const;

export const errorBody = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' }, field: { type: 'string' } },
    },
  },
} as const;

const namespace = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' }, created: { type: 'integer' } },
} as const;

/** A collection's log retention (its implicit stream's): both bounds, each null for none. */
const logRetention = {
  type: 'object',
  required: ['ms', 'bytes'],
  additionalProperties: false,
  description:
    `How much of the collection's log is kept beyond what every retained manifest has applied (never less: the log is trimmed only below that). ` +
    `Default { "ms": ${DEFAULT_COLLECTION_LOG_RETENTION_MS}, "bytes": null }; both null keep the log for ever.`,
  properties: {
    ms: {
      type: ['integer', 'null'],
      minimum: MIN_LOG_RETENTION_MS,
      maximum: MAX_LOG_RETENTION_MS,
      description: `Records older than this many milliseconds may be trimmed (${MIN_LOG_RETENTION_MS}..${MAX_LOG_RETENTION_MS}); null: no age bound.`,
    },
    bytes: {
      type: ['integer', 'null'],
      minimum: MIN_LOG_RETENTION_BYTES,
      maximum: MAX_LOG_RETENTION_BYTES,
      description: `Each partition keeps at most about this many bytes of log (${MIN_LOG_RETENTION_BYTES}..${MAX_LOG_RETENTION_BYTES}); null: no byte bound.`,
    },
  },
} as const;

const collection = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    namespace: { type: 'string' },
    primary_key: { type: 'string' },
    partitions: { type: 'integer' },
    fields: { type: 'object', additionalProperties: { type: 'string' } },
    created: { type: 'integer' },
    retention: { ...logRetention, description: `${logRetention.description} Lists leave it out: GET the collection.` },
  },
} as const;

/** A list's querystring (spec §5.4): a name prefix, a cursor, page_size up to MAX_PAGE_LIMIT; the status page's lists take it too. */
export const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    prefix: { type: 'string', maxLength: MAX_NAME_LENGTH },
    cursor: { type: 'string', maxLength: 1024 },
    page_size: { type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT, default: DEFAULT_PAGE_LIMIT },
  },
} as const;

const consistency = { type: 'string', enum: ['strong', 'eventual'], default: 'strong' } as const;
const token = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_LEGACY_TOKEN_LENGTH,
  description: `A consistency token a write returned: the read sees that write. Writes return tokens of at most ${MAX_TOKEN_LENGTH} characters.`,
} as const;

const erasureParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: ERASURE_ID_PATTERN.source } } } as const;

/** An erasure as the API shows it (spec §9.6: keyed hashes only, never a key). */
export const erasureBody = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    org: { type: 'string' },
    namespace_id: { type: 'integer' },
    collection_id: { type: 'integer' },
    phase: { type: 'string', enum: ['requested', 'purging', 'trimming', 'collecting', 'evicting', 'complete'] },
    waiting: { type: ['string', 'null'], description: 'What the current phase waits for' },
    requested: { type: 'integer' },
    completed: { type: ['integer', 'null'] },
    deadline: { type: 'integer', description: 'Completion is due by this time (ms since the epoch)' },
    expected_completion: { type: 'integer', description: 'requested + the configured bound (purge deadline + segmenter lag + GC grace)' },
    key_version: { type: 'integer' },
    key_hashes: { type: 'array', items: { type: 'string' }, description: "HMAC-SHA256 of each key's canonical encoding under the org's erasure-log key" },
    offsets: { type: 'array', items: { type: 'object', properties: { partition: { type: 'integer' }, offset: { type: 'integer' } } } },
    purged_version: { type: ['integer', 'null'] },
    counts: {
      type: 'object',
      properties: {
        keys: { type: 'integer' },
        files_rewritten: { type: 'integer' },
        tags_rewritten: { type: 'integer' },
        objects_retired: { type: 'integer' },
        objects_deleted: { type: 'integer' },
        orphans_deleted: { type: 'integer' },
        nodes_evicted: { type: 'integer' },
      },
    },
    rewritten: { type: 'array', items: { type: 'object', properties: { from: { type: 'string' }, to: { type: ['string', 'null'] } } } },
    tags: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, from_version: { type: 'integer' }, from_path: { type: 'string' }, to_path: { type: 'string' } } },
    },
    retired: { type: 'array', items: { type: 'string' } },
  },
} as const;

/** A namespace's key as the API shows it (docs/encryption.md): state and versions, never key material. */
export const namespaceKeyBody = {
  type: 'object',
  properties: {
    namespace: { type: 'string' },
    namespace_id: { type: 'integer' },
    encrypted: { type: 'boolean' },
    state: { type: 'string', enum: ['none', 'active', 'destroyed'], description: 'none: written unencrypted (no key yet); destroyed: crypto-shredded' },
    provider: { type: ['string', 'null'], enum: ['local', 'kms', null] },
    current_version: { type: ['integer', 'null'], description: 'The version new data is sealed under' },
    versions: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          version: { type: 'integer' },
          provider: { type: 'string' },
          key_ref: { type: 'string', description: "The root that wraps it: the master key's id, or the KMS key's ARN" },
          state: { type: 'string', enum: ['active', 'destroyed'] },
          created: { type: 'integer' },
          destroyed: { type: ['integer', 'null'] },
        },
      },
    },
  },
} as const;
export const nsParams = { type: 'object', required: ['ns'], properties: { ns: name } } as const;
export const collParams = { type: 'object', required: ['ns', 'c'], properties: { ns: name, c: name } } as const;

/** Replicas `GET /v1/placement` lists per key, at most. */
export const MAX_PLACEMENT_REPLICAS = 8;
/** Collections `GET /v1/placement` lists, at most (the first page by name). */
export const MAX_PLACEMENT_COLLECTIONS = 100;

export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  summary: string;
  /** Which role serves it (a node without the role answers 503). */
  role?: 'log' | 'query';
  /** The body's limit on this route, whatever its content type (else the gateway's BODY_LIMIT_BYTES). */
  bodyLimit?: number;
  schema: {
    params?: object;
    querystring?: object;
    body?: object;
    response: Record<number, object>;
  };
}

export const ROUTES = {
  createNamespace: {
    method: 'POST',
    url: '/v1/namespaces',
    summary: 'Create a namespace',
    schema: {
      body: { type: 'object', required: ['name'], additionalProperties: false, properties: { name } },
      response: { 201: namespace, 400: errorBody, 409: errorBody },
    },
  },
  listNamespaces: {
    method: 'GET',
    url: '/v1/namespaces',
    summary: 'List namespaces by name',
    schema: {
      querystring: listQuery,
      response: { 200: { type: 'object', properties: { items: { type: 'array', items: namespace }, next_cursor: { type: ['string', 'null'] } } } },
    },
  },
  getNamespace: {
    method: 'GET',
    url: '/v1/namespaces/:ns',
    summary: 'Get a namespace',
    schema: { params: nsParams, response: { 200: namespace, 404: errorBody } },
  },
  deleteNamespace: {
    method: 'DELETE',
    url: '/v1/namespaces/:ns',
    summary: 'Delete a namespace (it must have no collections)',
    schema: { params: nsParams, response: { 204: { type: 'null' }, 404: errorBody, 409: errorBody } },
  },
  getNamespaceKey: {
    method: 'GET',
    url: '/v1/namespaces/:ns/key',
    summary: "A namespace's encryption key: whether it is encrypted, its key versions and their state (never key material); a namespace admin's",
    schema: { params: nsParams, response: { 200: namespaceKeyBody, 404: errorBody, 503: errorBody } },
  },
  rotateNamespaceKey: {
    method: 'POST',
    url: '/v1/namespaces/:ns/key/rotate',
    summary: "Starts a new key version: data written from now on is sealed under it, data written before still reads (a namespace without a key gets its first one)",
    schema: { params: nsParams, response: { 200: namespaceKeyBody, 404: errorBody, 410: errorBody, 503: errorBody } },
  },
  destroyNamespaceKey: {
    method: 'POST',
    url: '/v1/namespaces/:ns/key/destroy',
    summary: "Crypto-shreds the namespace: destroys every version of its key, so none of its bytes in the bucket can be decrypted again. Cannot be undone",
    schema: {
      params: nsParams,
      body: {
        type: 'object',
        required: ['confirm'],
        additionalProperties: false,
        properties: { confirm: { type: 'string', maxLength: MAX_NAME_LENGTH, description: "The namespace's name, repeated: destruction cannot be undone" } },
      },
      response: { 200: namespaceKeyBody, 400: errorBody, 404: errorBody, 409: errorBody, 503: errorBody },
    },
  },
  createCollection: {
    method: 'POST',
    url: '/v1/namespaces/:ns/collections',
    summary: 'Create a collection of JSON documents with a primary key',
    schema: {
      params: nsParams,
      body: {
        type: 'object',
        required: ['name', 'primary_key'],
        additionalProperties: false,
        properties: {
          name,
          primary_key: name,
          partitions: { type: 'integer', minimum: 1, maximum: MAX_PARTITIONS, default: DEFAULT_COLLECTION_PARTITIONS },
          fields: {
            type: 'object',
            description: 'Optional field types (string, number, boolean, json), checked on write and in filters.',
            additionalProperties: { type: 'string', enum: ['string', 'number', 'boolean', 'json'] },
          },
          retention: logRetention,
        },
      },
      response: { 201: collection, 400: errorBody, 404: errorBody, 409: errorBody },
    },
  },
  listCollections: {
    method: 'GET',
    url: '/v1/namespaces/:ns/collections',
    summary: 'List collections by name',
    schema: {
      params: nsParams,
      querystring: listQuery,
      response: { 200: { type: 'object', properties: { items: { type: 'array', items: collection }, next_cursor: { type: ['string', 'null'] } } } },
    },
  },
  getCollection: {
    method: 'GET',
    url: '/v1/namespaces/:ns/collections/:c',
    summary: 'Get a collection',
    schema: { params: collParams, response: { 200: collection, 404: errorBody } },
  },
  setCollectionRetention: {
    method: 'PUT',
    url: '/v1/namespaces/:ns/collections/:c/retention',
    summary: "Set a collection's log retention (a namespace admin's action); answers the collection",
    schema: { params: collParams, body: logRetention, response: { 200: collection, 400: errorBody, 404: errorBody } },
  },
  deleteCollection: {
    method: 'DELETE',
    url: '/v1/namespaces/:ns/collections/:c',
    summary: 'Delete a collection',
    schema: { params: collParams, response: { 204: { type: 'null' }, 404: errorBody } },
  },
  writeDocuments: {
    method: 'POST',
    url: '/v1/namespaces/:ns/collections/:c/documents',
    summary: 'Upsert and delete documents; atomic per partition group, acknowledged once committed',
    role: 'log',
    schema: {
      params: collParams,
      body: {
        type: 'object',
        additionalProperties: false,
        properties: {
          upserts: { type: 'array', maxItems: MAX_BATCH_DOCS, items: { type: 'object' }, description: 'Documents, each with the primary key' },
          deletes: { type: 'array', maxItems: MAX_BATCH_DOCS, items: scalarKey, description: 'Primary key values' },
        },
      },
      response: { 200: { type: 'object', properties: { token: token } }, 400: errorBody, 404: errorBody, 413: errorBody, 429: errorBody, 503: errorBody },
    },
  },
  getDocument: {
    method: 'GET',
    url: '/v1/namespaces/:ns/collections/:c/documents/:id',
    summary: 'Get a document by primary key',
    role: 'query',
    schema: {
      params: { type: 'object', required: ['ns', 'c', 'id'], properties: { ns: name, c: name, id: { type: 'string', minLength: 1, maxLength: 1024 } } },
      querystring: { type: 'object', additionalProperties: false, properties: { consistency, token } },
      response: { 200: { type: 'object', additionalProperties: true }, 400: errorBody, 404: errorBody, 503: errorBody },
    },
  },
  query: {
    method: 'POST',
    url: '/v1/namespaces/:ns/collections/:c/query',
    summary: 'Query documents with a filter, in primary-key order, a page at a time',
    role: 'query',
    schema: {
      params: collParams,
      body: {
        type: 'object',
        additionalProperties: false,
        properties: {
          filter: {
            type: 'object',
            description: 'e.g. {"status": "active", "age": {"$gte": 18}}, {"$or": [...]}, {"tag": {"$in": ["a", "b"]}}, {"$not": {...}}',
          },
          limit: {
            type: 'integer',
            minimum: 1,
            maximum: MAX_QUERY_LIMIT,
            default: DEFAULT_QUERY_LIMIT,
            description: `Documents a page holds at most; a page also ends before the document that would take it past ${MAX_QUERY_PAGE_BYTES} bytes of documents (it always holds one).`,
          },
          cursor: { type: 'string', maxLength: 4096 },
          consistency,
          token,
        },
      },
      response: {
        200: {
          type: 'object',
          properties: {
            documents: { type: 'array', items: { type: 'object', additionalProperties: true }, description: 'The matching documents in primary-key order, each as it was sent.' },
            next_cursor: { type: ['string', 'null'], description: 'The next page\'s cursor; null when there is no more. A page may hold fewer than limit documents and still have more.' },
          },
        },
        400: errorBody,
        404: errorBody,
        503: errorBody,
      },
    },
  },
  eraseDocuments: {
    method: 'POST',
    url: '/v1/namespaces/:ns/collections/:c/erase',
    summary: 'Erase documents for good (GDPR): deleted at once, then purged from every object, version and cache by the deadline; answers the erasure and the delete\'s token',
    role: 'log',
    schema: {
      params: collParams,
      body: {
        type: 'object',
        additionalProperties: false,
        properties: {
          keys: { type: 'array', items: scalarKey, description: `Primary key values, 1..${MAX_ERASE_KEYS} (MAX_ERASE_KEYS)` },
          filter: { type: 'object', description: `A query filter; the documents it matches now (at most ${MAX_ERASE_KEYS}) are erased` },
        },
      },
      response: { 202: { type: 'object', properties: { erasure: erasureBody, token } }, 400: errorBody, 404: errorBody, 413: errorBody, 503: errorBody },
    },
  },
  getPlacement: {
    method: 'GET',
    url: '/v1/placement',
    summary: "Where a namespace's keys are placed (spec §5.3): the owner and replicas of its namespace key and of its collections, and the load per node (an org admin's; the operator names the org)",
    schema: {
      querystring: {
        type: 'object',
        required: ['ns'],
        additionalProperties: false,
        properties: {
          ns: { ...name, description: 'The namespace' },
          collection: { ...name, description: 'Only this collection (default: the first page of them)' },
          replicas: { type: 'integer', minimum: 1, maximum: MAX_PLACEMENT_REPLICAS, default: 1, description: 'Replicas listed per key (zone-aware)' },
          org: { type: 'string', minLength: 1, maxLength: 64, description: "The namespace's org: the operator's key must name it; an org's key may only name its own" },
        },
      },
      response: {
        200: {
          type: 'object',
          properties: {
            namespace: { type: 'object', properties: { name: { type: 'string' }, id: { type: 'integer' }, size_class: { type: 'string', enum: ['small', 'large'] } } },
            view: { type: 'object', properties: { version: { type: 'integer' }, nodes: { type: 'integer' } }, description: "The answering node's membership view" },
            nodes: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  id: { type: 'string' },
                  roles: { type: 'array', items: { type: 'string' } },
                  zone: { type: ['string', 'null'] },
                  weight: { type: 'number' },
                  owned: { type: 'integer', description: 'Keys listed here that the node owns' },
                  in_flight: { type: 'integer', description: 'Requests the answering node has forwarded to it and not yet had answered' },
                },
              },
            },
            keys: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  kind: { type: 'string', enum: ['namespace', 'collection'] },
                  key: { type: 'string', description: 'The placement key (what is hashed: ns/<id> for a small namespace)' },
                  collection: { type: 'string' },
                  role: { type: 'string', description: 'The nodes it is placed among: gateway (the quota bucket), query (reads and queries)' },
                  owner: { type: ['string', 'null'] },
                  replicas: { type: 'array', items: { type: 'string' } },
                },
              },
            },
          },
        },
        400: errorBody,
        403: errorBody,
        404: errorBody,
      },
    },
  },
  listErasures: {
    method: 'GET',
    url: '/v1/erasures',
    summary: "The org's erasure log, by id (the org admin's)",
    schema: {
      querystring: {
        type: 'object',
        additionalProperties: false,
        properties: { cursor: { type: 'string', maxLength: 128 }, page_size: { type: 'integer', minimum: 1, maximum: MAX_ERASURE_PAGE, default: MAX_ERASURE_PAGE }, active: { type: 'boolean' } },
      },
      response: { 200: { type: 'object', properties: { items: { type: 'array', items: erasureBody }, next_cursor: { type: ['string', 'null'] } } } },
    },
  },
  getErasure: {
    method: 'GET',
    url: '/v1/erasures/:id',
    summary: "An erasure's record and progress: phase, counts, expected completion",
    schema: { params: erasureParams, response: { 200: erasureBody, 404: errorBody } },
  },
  verifyErasure: {
    method: 'POST',
    url: '/v1/erasures/:id/verify',
    summary: "Recomputes a key's HMAC under the erasure's key version and shows the record if it holds it",
    schema: {
      params: erasureParams,
      body: { type: 'object', required: ['key'], additionalProperties: false, properties: { key: scalarKey } },
      response: {
        200: { type: 'object', properties: { verified: { type: 'boolean' }, key_hash: { type: 'string' }, key_version: { type: 'integer' }, erasure: erasureBody } },
        400: errorBody,
        404: errorBody,
        409: errorBody,
      },
    },
  },
} satisfies Record<string, RouteDef>;

/** The querystring of a route that takes no query parameters: any one sent is refused (400 naming it). */
export const NO_QUERY = { type: 'object', additionalProperties: false, properties: {} } as const;

/** What every route may answer when authentication is on (spec §6): its errors are documented once, here. */
const AUTH_RESPONSES: Record<number, object> = { 401: errorBody, 403: errorBody, 429: errorBody };

/**
 * The statuses an operation can answer because of its shape, whatever its handler does —
 * written once here rather than in each route: 431 (request line and headers over the
 * server's limit), 500 and 503 (the node shutting down, the metastore or store unavailable)
 * and 400 (a query parameter the route does not take, NO_QUERY) everywhere; 404 for
 * anything naming a resource in its path; 413 and 415 for every method that takes a body.
 */
export function protocolResponses(r: RouteDef): Record<number, object> {
  const out: Record<number, object> = { 400: errorBody, 431: errorBody, 500: errorBody, 503: errorBody };
  const takesBody = r.method !== 'GET';
  if (r.schema.params) out[404] = errorBody;
  if (takesBody) Object.assign(out, { 413: errorBody, 415: errorBody });
  return out;
}

/**
 * OpenAPI 3.1 generated from ROUTES and any more routes the node serves (the tenancy API).
 * Every operation lists every status it can answer (its route's, and protocolResponses').
 * With authentication on, every operation requires the API key (bearer) and may answer 401,
 * 403 or 429.
 */
export function openApiDocument(version: string, o: { routes?: Record<string, RouteDef>; auth?: boolean } = {}): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const [id, r0] of Object.entries({ ...ROUTES, ...o.routes }) as [string, RouteDef][]) {
    const r = { ...r0, schema: { ...r0.schema, response: { ...protocolResponses(r0), ...(o.auth ? AUTH_RESPONSES : {}), ...r0.schema.response } } };
    const path = r.url.replace(/:([A-Za-z_]+)/g, '{$1}');
    const parameters: object[] = [];
    const params = r.schema.params as { properties?: Record<string, object>; required?: string[] } | undefined;
    for (const [n, s] of Object.entries(params?.properties ?? {})) parameters.push({ name: n, in: 'path', required: true, schema: s });
    const qs = r.schema.querystring as { properties?: Record<string, object>; required?: string[] } | undefined;
    for (const [n, s] of Object.entries(qs?.properties ?? {})) parameters.push({ name: n, in: 'query', required: qs?.required?.includes(n) ?? false, schema: s });
    const responses: Record<string, object> = {};
    for (const [status, s] of Object.entries(r.schema.response)) {
      responses[status] = status === '204' ? { description: 'No content' } : { description: Number(status) < 400 ? 'OK' : 'Error', content: { 'application/json': { schema: s } } };
    }
    (paths[path] ??= {})[r.method.toLowerCase()] = {
      operationId: id,
      summary: r.summary,
      ...(parameters.length ? { parameters } : {}),
      ...(r.schema.body ? { requestBody: { required: true, content: { 'application/json': { schema: r.schema.body } } } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Loam HTTP API', version, description: 'Namespaces, collections and documents. Errors are {"error": {"code", "message"}}.' },
    paths,
    ...(o.auth
      ? {
          components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key: Authorization: Bearer loam_<key_id>_<secret>' } } },
          security: [{ apiKey: [] }],
        }
      : {}),
  };
}
