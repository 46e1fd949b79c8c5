// Original file: src/meta/backends/remote/loam_remote.proto

import type { WalCommitResult as _loam_remote_v1_WalCommitResult, WalCommitResult__Output as _loam_remote_v1_WalCommitResult__Output } from '../../../loam/remote/v1/WalCommitResult.js';
import type { ErrorDetail as _loam_remote_v1_ErrorDetail, ErrorDetail__Output as _loam_remote_v1_ErrorDetail__Output } from '../../../loam/remote/v1/ErrorDetail.js';

export interface CommitWalOutcome {
  'result'?: (_loam_remote_v1_WalCommitResult | null);
  'error'?: (_loam_remote_v1_ErrorDetail | null);
  'outcome'?: "result"|"error";
}

export interface CommitWalOutcome__Output {
  'result'?: (_loam_remote_v1_WalCommitResult__Output | null);
  'error'?: (_loam_remote_v1_ErrorDetail__Output | null);
  'outcome'?: "result"|"error";
}
