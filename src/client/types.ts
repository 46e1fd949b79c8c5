// The client's types: each route's body, query and answer, as the generated src/client/api-types.ts
// (from the server's /v1/openapi.json) has them. Their own file, so that both the client and
// the answer shapes it checks (./shapes.ts) read them without importing each other.
import type { operations } from './api-types.js';

export type Op = keyof operations;
export type Responses<O extends Op> = operations[O]['responses'];
/** The JSON an operation answers with status S. */
export type Answer<O extends Op, S extends keyof Responses<O>> = Responses<O>[S] extends { content: { 'application/json': infer J } } ? J : never;
/** The JSON body an operation takes. */
export type BodyOf<O extends Op> = operations[O] extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
export type QueryOf<O extends Op> = operations[O]['parameters'] extends { query?: infer Q } ? NonNullable<Q> : never;

export type Namespace = Answer<'getNamespace', 200>;
export type Collection = Answer<'getCollection', 200>;
export type CollectionSpec = BodyOf<'createCollection'>;
/** A collection's log retention: `ms` (age) and `bytes` (per partition), each null for no bound. */
export type LogRetention = BodyOf<'setCollectionRetention'>;
/** An erasure's record and progress (spec §9): phase, counts, expected completion, keyed hashes. */
export type Erasure = Answer<'getErasure', 200>;
export type EraseRequest = BodyOf<'eraseDocuments'>;
export type EraseResult = Answer<'eraseDocuments', 202>;
export type ErasureVerification = Answer<'verifyErasure', 200>;
export type ErasureList = Answer<'listErasures', 200>;
/** A namespace's encryption key (spec §9.8): state and versions, never key material. */
export type NamespaceKey = Answer<'getNamespaceKey', 200>;
export type WriteBatch<D extends Doc = Doc> = { upserts?: D[]; deletes?: (string | number)[] };
export type WriteResult = Answer<'writeDocuments', 200>;
export type QueryRequest = BodyOf<'query'>;
export type ListOptions = QueryOf<'listNamespaces'>;
export type PageOptions = QueryOf<'listKeys'>;
export type ReadOptions = QueryOf<'getDocument'>;
export type Org = Answer<'getOrg', 200>;
export type KeySpec = BodyOf<'createKey'>;
export type CreatedKey = Answer<'createKey', 201>;
export type KeyInfo = NonNullable<Answer<'listKeys', 200>['items']>[number];
export type BindingSpec = BodyOf<'grantRole'>;
export type Binding = Answer<'grantRole', 201>;
export type Quotas = Answer<'getQuotas', 200>;
export type QuotaSetting = BodyOf<'setOrgQuota'>;
export type OrgQuotaSet = Answer<'setOrgQuota', 200>;
export type CreatedOrg = Answer<'createOrg', 201>;
export type OrgList = Answer<'listOrgs', 200>;
export type UsageOptions = QueryOf<'getUsage'>;
export type Placement = Answer<'getPlacement', 200>;
export type PlacementOptions = Omit<QueryOf<'getPlacement'>, 'ns'>;
export type Usage = Answer<'getUsage', 200>;
/** A document: any JSON object with the collection's primary key. */
export type Doc = Record<string, unknown>;

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export interface QueryPage<D extends Doc = Doc> {
  documents: D[];
  next_cursor: string | null;
}
