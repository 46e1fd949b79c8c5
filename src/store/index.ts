// The object-store layer (spec §4.4, §9.9): the Store contract, its providers
// (memory, file, s3), the CountingStore wrapper and openStore(url).
export * from './types.js';
export * from './errors.js';
export * from './limits.js';
export { validatePath, validatePrefix, resolveRange, comparePaths } from './validate.js';
export { MemoryStore, type MemoryStoreOptions } from './memory.js';
export { FileStore, type FileStoreOptions } from './file.js';
export { S3Store, type S3StoreOptions, mapS3Error } from './s3.js';
export { CountingStore, type StoreCounts } from './counting.js';
export { openStore, STORE_URL_SCHEMES, type OpenStoreOverrides } from './open.js';
export { purge } from './purge.js';
