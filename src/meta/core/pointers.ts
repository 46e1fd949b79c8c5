// The rules of pointers, tags and GC claims (contract: casPointer, createTag, claimObject,
// releaseClaim; spec §3.2.3, §3.3), once. Pure: rows in, decisions out.
import { errors } from '../errors.js';
import type { ClaimResult, Fence, Stamp } from '../types.js';

/** casPointer applies only at `expected` (null: only if absent); else VersionMismatch with the current version. */
export function checkPointerVersion(key: string, current: number | null, expected: number | null): number {
  if (current !== expected) throw errors.versionMismatch(`pointer ${key}`, expected, current);
  return (current ?? 0) + 1;
}

/**
 * Superseded manifests are retained (and taggable) for the collection's manifestRetentionMs,
 * judged on the stamp; history rows superseded before this cutoff can be forgotten.
 */
export function historyCutoff(stamp: Stamp, retentionMs: number): Stamp {
  return stamp - retentionMs;
}

/**
 * createTag: only a retained manifest may be tagged — the current one (superseded null) or
 * one superseded less than retentionMs ago by the stamp (spec §3.3) — else NotFound.
 */
export function checkRetained(
  collection: number,
  version: number,
  history: { value: string; superseded: Stamp | null } | null,
  retentionMs: number,
  stamp: Stamp,
): string {
  if (!history || (history.superseded !== null && history.superseded + retentionMs < stamp)) {
    throw errors.notFound(`retained manifest version ${version} of collection ${collection}`);
  }
  return history.value;
}

/** A path's reference row as the GC rules see it. */
export interface RefState {
  refs: number;
  claimOwner: string | null;
  deleted: boolean;
}

/** Taking a reference on a path GC claimed (or deleted) is Claimed (spec §3.2.3). */
export function checkReferenceable(path: string, ref: RefState | null): void {
  if (ref && (ref.claimOwner !== null || ref.deleted)) throw errors.claimed(path);
}

/**
 * The takeover rule of claimObject, for a live claim held by `heldBy` at `heldEpoch` (null:
 * made without a fence): a fenced claim takes over one from a lower epoch, and resumes its
 * own at the same epoch. Epochs only grow (leases), so a paused older GC never wins back.
 */
export function claimTakenOver(heldBy: string, heldEpoch: number | null, owner: string, fence: Fence | undefined): boolean {
  if (!fence) return false;
  const held = heldEpoch ?? 0;
  return held < fence.epoch || (held === fence.epoch && heldBy === owner);
}

/** A path's claim as claimObject's recovery rule needs it: who holds it, at which lease epoch. */
export interface ClaimState extends RefState {
  claimEpoch: number | null;
}

/**
 * claimObject: claims only an unreferenced path, atomically with reading its row; a live
 * claim is taken over only by the takeover rule (`claimTakenOver`), a tombstone never.
 * Returns the refusal, or { takeover } when the dialect should write the claim (recording
 * the fence's epoch).
 */
export function claimDecision(path: string, owner: string, fence: Fence | undefined, ref: ClaimState | null): ClaimResult | { takeover: boolean } {
  if (ref && ref.refs > 0) return { claimed: false, path, reason: 'referenced', refs: ref.refs };
  const takeover = ref !== null && ref.claimOwner !== null && !ref.deleted && claimTakenOver(ref.claimOwner, ref.claimEpoch, owner, fence);
  if (ref && (ref.claimOwner !== null || ref.deleted) && !takeover) return { claimed: false, path, reason: 'claimed', refs: 0 };
  return { takeover };
}

/**
 * releaseClaim: 'repeat' for a second deleted:true (a tombstone is already there); NotFound
 * unless the owner holds the claim; else 'release'.
 */
export function releaseDecision(path: string, owner: string, deleted: boolean, ref: RefState | null): 'repeat' | 'release' {
  if (ref && ref.deleted && deleted) return 'repeat';
  if (!ref || ref.claimOwner !== owner) throw errors.notFound(`claim by ${owner} on ${path}`);
  return 'release';
}
