// The TypeScript client of Loam's HTTP API (`loam/client`). Paths, parameters, bodies and
// answers are typed by src/client/api-types.ts, generated from the server's own
// /v1/openapi.json. Plain fetch sends them (openapi-fetch's Request object and header merges
// per call cost about 15 % more client CPU per point read than bare fetch; `bench client`).
// Every call goes through `send`: one deadline per attempt, the retry rules of ./retry.ts,
// and a LoamError carrying the server's message unchanged.
import type { operations, paths } from './api-types.js';
import type { BodyOf, QueryOf } from './types.js';
import { CLIENT_ERROR_CODES, LoamError } from './errors.js';
import { DEFAULT_RETRY, nextDelay, parseRetryAfter, type Idempotence, type Outcome, type RetryPolicy } from './retry.js';
import { documentWithId, NO_CONTENT, notLoamAnswer, SHAPES, type Shape } from './shapes.js';

/** One attempt may take at most this long unless `timeoutMs` says otherwise (reads with a token wait server-side). */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Collections whose last write token the client remembers for read-your-writes, at most. */
export const MAX_TRACKED_TOKENS = 1_000;

export type { Namespace, Collection, CollectionSpec, LogRetention, Erasure, EraseRequest, EraseResult, ErasureVerification, ErasureList, NamespaceKey, WriteBatch, WriteResult, QueryRequest, ListOptions, PageOptions, ReadOptions, Org, KeySpec, CreatedKey, KeyInfo, BindingSpec, Binding, Quotas, QuotaSetting, OrgQuotaSet, CreatedOrg, OrgList, UsageOptions, Placement, PlacementOptions, Usage, Doc, Page, QueryPage } from './types.js';
import type { Namespace, Collection, CollectionSpec, LogRetention, Erasure, EraseRequest, EraseResult, ErasureVerification, ErasureList, NamespaceKey, WriteBatch, WriteResult, QueryRequest, ListOptions, PageOptions, ReadOptions, Org, KeySpec, CreatedKey, KeyInfo, BindingSpec, Binding, Quotas, QuotaSetting, OrgQuotaSet, CreatedOrg, OrgList, UsageOptions, Placement, PlacementOptions, Usage, Doc, Page, QueryPage } from './types.js';

export interface LoamClientOptions {
  /** The node's address, e.g. http://127.0.0.1:7070. */
  url: string;
  /** An API key (loam_<key_id>_<secret>); omit for a node with auth none. */
  key?: string;
  /** Per-attempt deadline, ms. */
  timeoutMs?: number;
  /** Attempts and total retry time (see ./retry.ts for what is retried). */
  retry?: Partial<RetryPolicy>;
  /**
   * Read-your-writes: reads of a collection carry the consistency token of the last write this
   * client made to it, so an eventual read (or any node) answers at least that fresh.
   */
  readYourWrites?: boolean;
  /** A fetch to use instead of the global one (tests, proxies). */
  fetch?: typeof fetch;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A path of the API document, its {parameters} filled in and encoded (the template is checked against the document). */
function pathOf<P extends keyof paths>(template: P, params: Record<string, string> = {}): string {
  return (template as string).replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(params[n] ?? ''));
}

function queryString(q: object | undefined): string {
  let out = '';
  for (const k in q) {
    const v = (q as Record<string, unknown>)[k];
    if (v !== undefined && v !== null) out += `${out ? '&' : '?'}${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`;
  }
  return out;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Connection errors that mean the request never reached the server. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function networkCode(e: unknown): string | undefined {
  const c = (e as { cause?: { code?: string; errors?: { code?: string }[] } }).cause;
  return c?.code ?? c?.errors?.[0]?.code;
}

/** What went wrong on the network, in the words of the error at its root. */
function networkReason(e: unknown): string {
  const code = networkCode(e);
  const cause = (e as { cause?: { message?: string } }).cause?.message;
  return [(e as Error).message, code ?? cause].filter(Boolean).join(': ');
}

/** A non-2xx answer as a LoamError: the server's code and message, unchanged. */
async function answerError(res: Response, request: string, attempts: number): Promise<LoamError> {
  const status = res.status;
  const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
  const details = { request, attempts, ...(retryAfterMs !== undefined ? { retryAfterS: retryAfterMs / 1000 } : {}) };
  const text = await res.text();
  let e: { code?: unknown; message?: unknown } | undefined;
  try {
    e = (JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }).error;
  } catch {
    /* not Loam's JSON error */
  }
  if (e && typeof e.code === 'string' && typeof e.message === 'string') return new LoamError(e.code, status, e.message, details);
  // A proxy's or another server's page: one line of it, not the page.
  return new LoamError(CLIENT_ERROR_CODES.badResponse, status, notLoamAnswer(status, request, res.headers.get('content-type'), text), details);
}

/** A 2xx answer's JSON (undefined when it has no body), once it has the route's shape. */
async function loamAnswer(res: Response, request: string, attempts: number, shape: Shape): Promise<unknown> {
  const text = await res.text();
  let body: unknown;
  if (text !== '') {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      throw new LoamError(CLIENT_ERROR_CODES.badResponse, res.status, notLoamAnswer(res.status, request, res.headers.get('content-type'), text), { request, attempts });
    }
  }
  const lacks = shape(body);
  if (lacks !== null) throw new LoamError(CLIENT_ERROR_CODES.badResponse, res.status, `HTTP ${res.status} from ${request}: not a Loam answer (${lacks})`, { request, attempts });
  return body;
}

export class LoamClient {
  private readonly base: string;
  private readonly headers: Record<string, string>;
  private readonly jsonHeaders: Record<string, string>;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly tokens = new Map<string, string>();
  readonly readYourWrites: boolean;

  constructor(o: LoamClientOptions) {
    this.base = o.url.replace(/\/+$/, '');
    this.headers = o.key ? { authorization: `Bearer ${o.key}` } : {};
    this.jsonHeaders = { ...this.headers, 'content-type': 'application/json' };
    this.fetch = o.fetch ?? globalThis.fetch;
    this.timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retry = { ...DEFAULT_RETRY, ...o.retry };
    this.readYourWrites = o.readYourWrites === true;
  }

  /**
   * Sends one request, retrying as ./retry.ts allows; resolves with the answer's JSON (undefined
   * for 204) once it has the route's `shape`, or rejects with a LoamError (`bad_response` for a
   * 2xx that is not the route's answer: a server that is not Loam).
   */
  private async send<T>(method: Method, path: string, idem: Idempotence, shape: Shape, o: { query?: object; body?: unknown } = {}): Promise<T> {
    const request = `${method} ${path}`;
    const url = this.base + path + queryString(o.query);
    const body = o.body === undefined ? undefined : JSON.stringify(o.body);
    const headers = body === undefined ? this.headers : this.jsonHeaders;
    const started = Date.now();
    for (let n = 1; ; n++) {
      let outcome: Outcome;
      let err: LoamError;
      try {
        const res = await this.fetch(url, { method, headers, body, signal: AbortSignal.timeout(this.timeoutMs) });
        if (res.ok) return (await loamAnswer(res, request, n, shape)) as T;
        err = await answerError(res, request, n);
        outcome = { kind: 'answer', status: res.status, ...(err.details.retryAfterS !== undefined ? { retryAfterMs: err.details.retryAfterS * 1000 } : {}) };
      } catch (e) {
        if ((e as Error).name === 'TimeoutError') {
          err = new LoamError(CLIENT_ERROR_CODES.timeout, 0, `${request}: no answer within ${this.timeoutMs} ms`, { request, attempts: n, cause: e });
          outcome = { kind: 'lost' };
        } else if (e instanceof LoamError) {
          throw e; // an answer, but not Loam's: sending it again would get the same
        } else {
          const code = networkCode(e);
          const notSent = code !== undefined && NOT_CONNECTED.has(code);
          err = new LoamError(CLIENT_ERROR_CODES.unreachable, 0, `${request}: ${networkReason(e)}`, { request, attempts: n, cause: e, notSent });
          outcome = notSent ? { kind: 'not_connected' } : { kind: 'lost' };
        }
      }
      // Bounded: nextDelay gives up after maxAttempts and past maxRetryTimeMs.
      const d = nextDelay(outcome, idem, n, started, this.retry);
      if (d === null) throw err;
      await sleep(d);
    }
  }

  private tokenKey(ns: string, c: string): string {
    return `${ns}\u0000${c}`;
  }

  /** The consistency token of the last write this client made to the collection. */
  lastToken(ns: string, c: string): string | undefined {
    return this.tokens.get(this.tokenKey(ns, c));
  }

  private remember(ns: string, c: string, token: string | undefined): void {
    if (!token) return;
    const k = this.tokenKey(ns, c);
    this.tokens.delete(k);
    if (this.tokens.size >= MAX_TRACKED_TOKENS) this.tokens.delete(this.tokens.keys().next().value!);
    this.tokens.set(k, token);
  }

  /** The token a read of the collection carries: the caller's, else (read-your-writes) the last write's. */
  private readToken(ns: string, c: string, given: string | undefined): string | undefined {
    return given ?? (this.readYourWrites ? this.lastToken(ns, c) : undefined);
  }

  // ------------------------------------------------------------------ namespaces

  readonly namespaces = {
    create: (name: string): Promise<Namespace> => this.send('POST', pathOf('/v1/namespaces'), 'unsafe', SHAPES.namespace, { body: { name } satisfies BodyOf<'createNamespace'> }),
    get: (name: string): Promise<Namespace> => this.send('GET', pathOf('/v1/namespaces/{ns}', { ns: name }), 'safe', SHAPES.namespace),
    /** One page, by name. */
    list: (o: ListOptions = {}): Promise<Page<Namespace>> => this.send('GET', pathOf('/v1/namespaces'), 'safe', SHAPES.page, { query: o }),
    /** Every page, following the cursor. */
    pages: (o: ListOptions = {}): AsyncGenerator<Page<Namespace>> => this.paged((cursor) => this.namespaces.list({ ...o, ...cursor })),
    drop: (name: string): Promise<void> => this.send('DELETE', pathOf('/v1/namespaces/{ns}', { ns: name }), 'unsafe', NO_CONTENT),
  };

  // ------------------------------------------------------------------ collections

  readonly collections = {
    create: (ns: string, spec: CollectionSpec): Promise<Collection> => this.send('POST', pathOf('/v1/namespaces/{ns}/collections', { ns }), 'unsafe', SHAPES.collection, { body: spec }),
    get: (ns: string, c: string): Promise<Collection> => this.send('GET', pathOf('/v1/namespaces/{ns}/collections/{c}', { ns, c }), 'safe', SHAPES.collection),
    list: (ns: string, o: ListOptions = {}): Promise<Page<Collection>> => this.send('GET', pathOf('/v1/namespaces/{ns}/collections', { ns }), 'safe', SHAPES.page, { query: o }),
    pages: (ns: string, o: ListOptions = {}): AsyncGenerator<Page<Collection>> => this.paged((cursor) => this.collections.list(ns, { ...o, ...cursor })),
    drop: (ns: string, c: string): Promise<void> => this.send('DELETE', pathOf('/v1/namespaces/{ns}/collections/{c}', { ns, c }), 'unsafe', NO_CONTENT),
    /** Replaces the collection's log retention (a namespace admin's key); answers the collection. Setting it twice is the same as once. */
    setRetention: (ns: string, c: string, r: LogRetention): Promise<Collection> =>
      this.send('PUT', pathOf('/v1/namespaces/{ns}/collections/{c}/retention', { ns, c }), 'safe', SHAPES.collection, { body: r }),
  };

  /** A handle on one collection's documents. */
  collection<D extends Doc = Doc>(ns: string, c: string): CollectionHandle<D> {
    return new CollectionHandle<D>(this, ns, c);
  }

  // ------------------------------------------------------------------ documents

  /** Upserts and deletes in one batch; resolves once committed, with its consistency token. */
  async write<D extends Doc>(ns: string, c: string, batch: WriteBatch<D>): Promise<WriteResult> {
    // Not retried once it may have reached the server: writes carry no idempotency key.
    const r = await this.send<WriteResult>('POST', pathOf('/v1/namespaces/{ns}/collections/{c}/documents', { ns, c }), 'unsafe', SHAPES.write, {
      body: batch satisfies BodyOf<'writeDocuments'>,
    });
    this.remember(ns, c, r.token);
    return r;
  }

  /** A document by primary key; a LoamError `not_found` (404) when there is none. */
  get<D extends Doc = Doc>(ns: string, c: string, id: string | number, o: ReadOptions = {}): Promise<D> {
    const token = this.readToken(ns, c, o.token);
    const query = token === undefined ? o : { ...o, token };
    return this.send('GET', pathOf('/v1/namespaces/{ns}/collections/{c}/documents/{id}', { ns, c, id: String(id) }), 'safe', documentWithId(id), { query });
  }

  /** One page of a query. */
  queryPage<D extends Doc = Doc>(ns: string, c: string, q: QueryRequest = {}): Promise<QueryPage<D>> {
    const token = this.readToken(ns, c, q.token);
    const body = token === undefined ? q : { ...q, token };
    return this.send('POST', pathOf('/v1/namespaces/{ns}/collections/{c}/query', { ns, c }), 'safe', SHAPES.queryPage, { body });
  }

  /** A query's pages, in primary-key order, each fetched when the loop asks for it. */
  async *query<D extends Doc = Doc>(ns: string, c: string, q: QueryRequest = {}): AsyncGenerator<QueryPage<D>> {
    let cursor = q.cursor;
    for (;;) {
      const page: QueryPage<D> = await this.queryPage<D>(ns, c, { ...q, ...(cursor ? { cursor } : {}) });
      yield page;
      // Ends on the last page; a cursor that does not move would never end (a server fault).
      if (!page.next_cursor || page.next_cursor === cursor) return;
      cursor = page.next_cursor;
    }
  }

  // ------------------------------------------------------------------ erasure (GDPR)

  /**
   * Erases documents for good, by primary keys or by filter: deleted at once (the answer's
   * token sees the delete), then purged from every object, object version and cache by the
   * erasure's deadline. Not retried once it may have reached the server (a repeat erases again).
   */
  async erase(ns: string, c: string, req: EraseRequest): Promise<EraseResult> {
    const r = await this.send<EraseResult>('POST', pathOf('/v1/namespaces/{ns}/collections/{c}/erase', { ns, c }), 'unsafe', SHAPES.erase, { body: req });
    this.remember(ns, c, r.token);
    return r;
  }

  /** The org's erasure log (an org admin's key). */
  readonly erasures = {
    list: (o: QueryOf<'listErasures'> = {}): Promise<ErasureList> => this.send('GET', pathOf('/v1/erasures'), 'safe', SHAPES.erasureList, { query: o }),
    get: (id: string): Promise<Erasure> => this.send('GET', pathOf('/v1/erasures/{id}', { id }), 'safe', SHAPES.erasure),
    /** Recomputes the key's HMAC under the erasure's key version: 200 when the record holds it, a LoamError not_found when not. */
    verify: (id: string, key: string | number): Promise<ErasureVerification> =>
      this.send('POST', pathOf('/v1/erasures/{id}/verify', { id }), 'safe', SHAPES.erasureVerification, { body: { key } satisfies BodyOf<'verifyErasure'> }),
  };

  // ------------------------------------------------------------------ namespace keys (encryption)

  /** A namespace's encryption key: show, rotate, destroy (crypto-shred); a namespace admin's key. */
  readonly namespaceKeys = {
    get: (ns: string): Promise<NamespaceKey> => this.send('GET', pathOf('/v1/namespaces/{ns}/key', { ns }), 'safe', SHAPES.namespaceKey),
    /** A new key version for data written from now on. Not retried once it may have reached the server (a repeat rotates again). */
    rotate: (ns: string): Promise<NamespaceKey> => this.send('POST', pathOf('/v1/namespaces/{ns}/key/rotate', { ns }), 'unsafe', SHAPES.namespaceKey),
    /**
     * Crypto-shreds the namespace: every version of its key is destroyed and none of its data
     * can be read again. `confirm` must be the namespace's name. Idempotent.
     */
    destroy: (ns: string, confirm: string): Promise<NamespaceKey> =>
      this.send('POST', pathOf('/v1/namespaces/{ns}/key/destroy', { ns }), 'safe', SHAPES.namespaceKey, { body: { confirm } satisfies BodyOf<'destroyNamespaceKey'> }),
  };

  // ------------------------------------------------------------------ tenancy

  readonly org = {
    get: (): Promise<Org> => this.send('GET', pathOf('/v1/org'), 'safe', SHAPES.org),
  };

  readonly keys = {
    list: (o: PageOptions = {}): Promise<Page<KeyInfo>> => this.send('GET', pathOf('/v1/keys'), 'safe', SHAPES.page, { query: o }),
    pages: (o: PageOptions = {}): AsyncGenerator<Page<KeyInfo>> => this.paged((cursor) => this.keys.list({ ...o, ...cursor })),
    /** A new key; its secret is in this answer only. */
    create: (spec: KeySpec): Promise<CreatedKey> => this.send('POST', pathOf('/v1/keys'), 'unsafe', SHAPES.createdKey, { body: spec }),
    revoke: (keyId: string): Promise<void> => this.send('DELETE', pathOf('/v1/keys/{key}', { key: keyId }), 'unsafe', NO_CONTENT),
  };

  readonly bindings = {
    list: (o: PageOptions = {}): Promise<Page<Binding>> => this.send('GET', pathOf('/v1/bindings'), 'safe', SHAPES.page, { query: o }),
    pages: (o: PageOptions = {}): AsyncGenerator<Page<Binding>> => this.paged((cursor) => this.bindings.list({ ...o, ...cursor })),
    grant: (b: BindingSpec): Promise<Binding> => this.send('POST', pathOf('/v1/bindings'), 'unsafe', SHAPES.binding, { body: b }),
    revoke: (b: BindingSpec): Promise<void> => this.send('DELETE', pathOf('/v1/bindings'), 'unsafe', NO_CONTENT, { body: b }),
  };

  /** The key's own org's quotas: read only (the operator sets them, through `orgs`). */
  readonly quotas = {
    get: (o: QueryOf<'getQuotas'> = {}): Promise<Quotas> => this.send('GET', pathOf('/v1/quotas'), 'safe', SHAPES.quotas, { query: o }),
  };

  /** The operator's routes (an operator key): orgs, and any org's quotas and usage. */
  readonly orgs = {
    list: (o: PageOptions = {}): Promise<OrgList> => this.send('GET', pathOf('/v1/orgs'), 'safe', SHAPES.orgList, { query: o }),
    /** Creates an org; the answer holds its first admin key, once. */
    create: (id: string): Promise<CreatedOrg> => this.send('POST', pathOf('/v1/orgs'), 'unsafe', SHAPES.createdOrg, { body: { id } }),
    quotas: (org: string, o: QueryOf<'getOrgQuotas'> = {}): Promise<Quotas> => this.send('GET', pathOf('/v1/orgs/{org}/quotas', { org }), 'safe', SHAPES.quotas, { query: o }),
    /** Sets (or with value null clears) an override; setting a value twice is the same as once. */
    setQuota: (org: string, q: QuotaSetting): Promise<OrgQuotaSet> => this.send('PUT', pathOf('/v1/orgs/{org}/quotas', { org }), 'safe', SHAPES.orgQuotaSet, { body: q }),
    usage: (org: string, o: UsageOptions = {}): Promise<Usage> => this.send('GET', pathOf('/v1/orgs/{org}/usage', { org }), 'safe', SHAPES.usage, { query: o }),
  };

  /** Where a namespace's keys are placed and the load per node (an org admin's key; the operator's names the org). */
  readonly placement = {
    get: (ns: string, o: PlacementOptions = {}): Promise<Placement> => this.send('GET', pathOf('/v1/placement'), 'safe', SHAPES.placement, { query: { ns, ...o } }),
  };

  readonly usage = {
    get: (o: UsageOptions = {}): Promise<Usage> => this.send('GET', pathOf('/v1/usage'), 'safe', SHAPES.usage, { query: o }),
  };

  /** Follows a list's cursor page by page, for as long as the loop asks. */
  private async *paged<T>(page: (cursor: { cursor?: string }) => Promise<Page<T>>): AsyncGenerator<Page<T>> {
    let cursor: string | undefined;
    for (;;) {
      const p = await page(cursor ? { cursor } : {});
      yield p;
      if (!p.next_cursor || p.next_cursor === cursor) return;
      cursor = p.next_cursor;
    }
  }
}

/** One collection's documents: `client.collection('demo', 'books')`. */
export class CollectionHandle<D extends Doc = Doc> {
  constructor(
    readonly client: LoamClient,
    readonly namespace: string,
    readonly name: string,
  ) {}

  write(batch: WriteBatch<D>): Promise<WriteResult> {
    return this.client.write(this.namespace, this.name, batch);
  }

  upsert(docs: D[]): Promise<WriteResult> {
    return this.write({ upserts: docs });
  }

  delete(ids: (string | number)[]): Promise<WriteResult> {
    return this.write({ deletes: ids });
  }

  /** Erases these documents for good (GDPR); see LoamClient.erase. */
  erase(req: EraseRequest): Promise<EraseResult> {
    return this.client.erase(this.namespace, this.name, req);
  }

  get(id: string | number, o: ReadOptions = {}): Promise<D> {
    return this.client.get<D>(this.namespace, this.name, id, o);
  }

  queryPage(q: QueryRequest = {}): Promise<QueryPage<D>> {
    return this.client.queryPage<D>(this.namespace, this.name, q);
  }

  /** `for await (const page of books.query({ filter: { year: { $gte: 1980 } } }))` */
  query(q: QueryRequest = {}): AsyncGenerator<QueryPage<D>> {
    return this.client.query<D>(this.namespace, this.name, q);
  }

  /** The query's documents one by one, fetching pages as needed. */
  async *documents(q: QueryRequest = {}): AsyncGenerator<D> {
    for await (const page of this.query(q)) yield* page.documents;
  }

  /** The token of the last write through this client. */
  get lastToken(): string | undefined {
    return this.client.lastToken(this.namespace, this.name);
  }
}
