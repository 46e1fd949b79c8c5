// Original file: src/meta/backends/remote/loam_remote.proto

export const NotClaimedReason = {
  NOT_CLAIMED_REASON_UNSPECIFIED: 'NOT_CLAIMED_REASON_UNSPECIFIED',
  NOT_CLAIMED_REASON_REFERENCED: 'NOT_CLAIMED_REASON_REFERENCED',
  NOT_CLAIMED_REASON_CLAIMED: 'NOT_CLAIMED_REASON_CLAIMED',
} as const;

export type NotClaimedReason =
  | 'NOT_CLAIMED_REASON_UNSPECIFIED'
  | 0
  | 'NOT_CLAIMED_REASON_REFERENCED'
  | 1
  | 'NOT_CLAIMED_REASON_CLAIMED'
  | 2

export type NotClaimedReason__Output = typeof NotClaimedReason[keyof typeof NotClaimedReason]
