// Original file: src/meta/backends/remote/loam_remote.proto

import type { CommitWalRequest as _loam_remote_v1_CommitWalRequest, CommitWalRequest__Output as _loam_remote_v1_CommitWalRequest__Output } from '../../../loam/remote/v1/CommitWalRequest.js';

export interface BatchedCommitWal {
  'call'?: (_loam_remote_v1_CommitWalRequest | null);
  'timeoutMs'?: (number);
}

export interface BatchedCommitWal__Output {
  'call': (_loam_remote_v1_CommitWalRequest__Output | null);
  'timeoutMs': (number);
}
