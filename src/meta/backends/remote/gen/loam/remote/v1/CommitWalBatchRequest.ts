// Original file: src/meta/backends/remote/loam_remote.proto

import type { BatchedCommitWal as _loam_remote_v1_BatchedCommitWal, BatchedCommitWal__Output as _loam_remote_v1_BatchedCommitWal__Output } from '../../../loam/remote/v1/BatchedCommitWal.js';

export interface CommitWalBatchRequest {
  'calls'?: (_loam_remote_v1_BatchedCommitWal)[];
}

export interface CommitWalBatchRequest__Output {
  'calls': (_loam_remote_v1_BatchedCommitWal__Output)[];
}
