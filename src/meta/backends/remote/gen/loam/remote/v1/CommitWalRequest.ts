// Original file: src/meta/backends/remote/loam_remote.proto

import type { WalCommit as _loam_remote_v1_WalCommit, WalCommit__Output as _loam_remote_v1_WalCommit__Output } from '../../../loam/remote/v1/WalCommit.js';
import type { WriteContext as _loam_remote_v1_WriteContext, WriteContext__Output as _loam_remote_v1_WriteContext__Output } from '../../../loam/remote/v1/WriteContext.js';

export interface CommitWalRequest {
  'commit'?: (_loam_remote_v1_WalCommit | null);
  'w'?: (_loam_remote_v1_WriteContext | null);
}

export interface CommitWalRequest__Output {
  'commit': (_loam_remote_v1_WalCommit__Output | null);
  'w': (_loam_remote_v1_WriteContext__Output | null);
}
