// Original file: src/meta/backends/remote/loam_remote.proto

import type { BatchedCommitWal as _loam_remote_v1_BatchedCommitWal, BatchedCommitWal__Output as _loam_remote_v1_BatchedCommitWal__Output } from '../../../loam/remote/v1/BatchedCommitWal.js';
import type { Long } from '@grpc/proto-loader';

export interface CommitWalStreamRequest {
  'batchId'?: (number | string | Long);
  'calls'?: (_loam_remote_v1_BatchedCommitWal)[];
}

export interface CommitWalStreamRequest__Output {
  'batchId': (number);
  'calls': (_loam_remote_v1_BatchedCommitWal__Output)[];
}
