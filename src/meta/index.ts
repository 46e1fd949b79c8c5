// The metastore contract: what callers import. Backends are imported from ./backends.
export * from './contract.js';
export * from './errors.js';
export * from './limits.js';
export * from './types.js';
export * from './token.js';
export { planGroups } from './groups.js';
export { StampClock } from './stamp.js';
