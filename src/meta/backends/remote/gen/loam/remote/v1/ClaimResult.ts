// Original file: src/meta/backends/remote/loam_remote.proto

import type { NotClaimedReason as _loam_remote_v1_NotClaimedReason, NotClaimedReason__Output as _loam_remote_v1_NotClaimedReason__Output } from '../../../loam/remote/v1/NotClaimedReason.js';
import type { Long } from '@grpc/proto-loader';

export interface _loam_remote_v1_ClaimResult_Claimed {
  'path'?: (string);
  'owner'?: (string);
  'stamp'?: (number | string | Long);
  'takeover'?: (boolean);
  '_takeover'?: "takeover";
}

export interface _loam_remote_v1_ClaimResult_Claimed__Output {
  'path': (string);
  'owner': (string);
  'stamp': (number);
  'takeover'?: (boolean);
  '_takeover'?: "takeover";
}

export interface _loam_remote_v1_ClaimResult_NotClaimed {
  'path'?: (string);
  'reason'?: (_loam_remote_v1_NotClaimedReason);
  'refs'?: (number | string | Long);
}

export interface _loam_remote_v1_ClaimResult_NotClaimed__Output {
  'path': (string);
  'reason': (_loam_remote_v1_NotClaimedReason__Output);
  'refs': (number);
}

export interface ClaimResult {
  'claimed'?: (_loam_remote_v1_ClaimResult_Claimed | null);
  'notClaimed'?: (_loam_remote_v1_ClaimResult_NotClaimed | null);
  'result'?: "claimed"|"notClaimed";
}

export interface ClaimResult__Output {
  'claimed'?: (_loam_remote_v1_ClaimResult_Claimed__Output | null);
  'notClaimed'?: (_loam_remote_v1_ClaimResult_NotClaimed__Output | null);
  'result'?: "claimed"|"notClaimed";
}
