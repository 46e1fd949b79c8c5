// Original file: src/meta/backends/remote/loam_remote.proto

import type { CommitWalOutcome as _loam_remote_v1_CommitWalOutcome, CommitWalOutcome__Output as _loam_remote_v1_CommitWalOutcome__Output } from '../../../loam/remote/v1/CommitWalOutcome.js';
import type { ErrorDetail as _loam_remote_v1_ErrorDetail, ErrorDetail__Output as _loam_remote_v1_ErrorDetail__Output } from '../../../loam/remote/v1/ErrorDetail.js';
import type { Long } from '@grpc/proto-loader';

export interface CommitWalStreamResult {
  'batchId'?: (number | string | Long);
  'outcomes'?: (_loam_remote_v1_CommitWalOutcome)[];
  'error'?: (_loam_remote_v1_ErrorDetail | null);
}

export interface CommitWalStreamResult__Output {
  'batchId': (number);
  'outcomes': (_loam_remote_v1_CommitWalOutcome__Output)[];
  'error': (_loam_remote_v1_ErrorDetail__Output | null);
}
