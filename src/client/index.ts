// `loam/client`: the typed client of Loam's HTTP API.
//
//   import { LoamClient } from 'loam/client';
//   const loam = new LoamClient({ url: 'http://127.0.0.1:7070', key: process.env.LOAM_KEY });
//   await loam.namespaces.create('demo');
export { LoamClient, CollectionHandle, DEFAULT_TIMEOUT_MS, MAX_TRACKED_TOKENS } from './client.js';
export type {
  Binding,
  BindingSpec,
  Collection,
  CollectionSpec,
  CreatedKey,
  Doc,
  EraseRequest,
  EraseResult,
  Erasure,
  ErasureList,
  ErasureVerification,
  NamespaceKey,
  KeyInfo,
  KeySpec,
  ListOptions,
  LogRetention,
  LoamClientOptions,
  Namespace,
  Org,
  Page,
  PageOptions,
  Placement,
  PlacementOptions,
  QueryPage,
  QueryRequest,
  QuotaSetting,
  Quotas,
  ReadOptions,
  Usage,
  UsageOptions,
  WriteBatch,
  WriteResult,
} from './client.js';
export { LoamError, isLoamError, mayHaveBeenApplied, CLIENT_ERROR_CODES } from './errors.js';
export {
  DEFAULT_RETRY,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_RETRY_TIME_MS,
  BACKOFF_BASE_MS,
  BACKOFF_MAX_MS,
  RETRY_AFTER_JITTER,
  MAX_RETRY_AFTER_MS,
  type RetryPolicy,
} from './retry.js';
export type { paths, operations } from './api-types.js';
