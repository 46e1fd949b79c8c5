// Argument checks of the directory, the same on every backend (InvalidArgument naming the field).
import { errors } from '../../meta/errors.js';
import * as v from '../../meta/validate.js';
import { MAX_BULK_NAMESPACES, MAX_TOKEN_STRING_LENGTH } from '../../meta/limits.js';
import { PLACEMENT_STATES, SIZE_CLASSES, type EntryChange, type SizeClass } from '../../meta/backends/sharded/directory.js';

/** Shard identities (credential-free locations) are at most this long. */
export const MAX_SHARD_IDENTITY_LENGTH = 512;

export function checkReserve(org: string, name: string, shard: string, sizeClass: SizeClass, reservedBy?: string): void {
  v.name('org', org);
  v.name('name', name);
  v.name('shard', shard);
  if (!SIZE_CLASSES.includes(sizeClass)) throw errors.invalid('sizeClass', `must be one of ${SIZE_CLASSES.join(', ')}`);
  if (reservedBy !== undefined && (typeof reservedBy !== 'string' || reservedBy.length === 0 || reservedBy.length > MAX_TOKEN_STRING_LENGTH)) {
    throw errors.invalid('reservedBy', `must be 1-${MAX_TOKEN_STRING_LENGTH} characters`);
  }
}

/** A bulk call's list: 1..MAX_BULK_NAMESPACES items. */
export function checkBulk(field: string, items: unknown): void {
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_BULK_NAMESPACES) {
    throw errors.invalid(field, `must be a list of 1..${MAX_BULK_NAMESPACES} items`);
  }
}

export function checkEntryChange(c: EntryChange): void {
  if (typeof c !== 'object' || c === null) throw errors.invalid('change', 'must be an object');
  if (c.shard !== undefined) v.name('shard', c.shard);
  if (c.state !== undefined && !PLACEMENT_STATES.includes(c.state)) throw errors.invalid('state', `must be one of ${PLACEMENT_STATES.join(', ')}`);
  if (c.sizeClass !== undefined && !SIZE_CLASSES.includes(c.sizeClass)) throw errors.invalid('sizeClass', `must be one of ${SIZE_CLASSES.join(', ')}`);
}

export function checkShard(name: string, identity: string): void {
  v.name('shard', name);
  if (typeof identity !== 'string' || identity.length === 0 || identity.length > MAX_SHARD_IDENTITY_LENGTH) {
    throw errors.invalid('identity', `must be 1-${MAX_SHARD_IDENTITY_LENGTH} characters`);
  }
}
