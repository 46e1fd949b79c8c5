// The metastore core (DESIGN §5.1, issue 12): every rule of the contract once, over a
// backend's narrow storage parts. What a backend must supply, and how it adopts the core,
// is in ./README.md.
export { CHECKS, CHECKED_METHODS, checkWriteContext, type CheckedMethod } from './checks.js';
export { validating, isValidating, type ValidatingOptions } from './validating.js';
export * from './catalog.js';
export * from './feed.js';
export * from './leases.js';
export * from './log.js';
export * from './paging.js';
export * from './pointers.js';
export { maxStampIn } from './stamps.js';
export * from './tokens.js';
export * from './bulk.js';
