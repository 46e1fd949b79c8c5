// Original file: src/meta/backends/remote/loam_remote.proto

import type { CommitWalOutcome as _loam_remote_v1_CommitWalOutcome, CommitWalOutcome__Output as _loam_remote_v1_CommitWalOutcome__Output } from '../../../loam/remote/v1/CommitWalOutcome.js';

export interface CommitWalBatchResult {
  'outcomes'?: (_loam_remote_v1_CommitWalOutcome)[];
}

export interface CommitWalBatchResult__Output {
  'outcomes': (_loam_remote_v1_CommitWalOutcome__Output)[];
}
