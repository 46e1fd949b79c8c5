// Original file: src/meta/backends/remote/loam_remote.proto

import type { AssignedRange as _loam_remote_v1_AssignedRange, AssignedRange__Output as _loam_remote_v1_AssignedRange__Output } from '../../../loam/remote/v1/AssignedRange.js';

export interface WalCommitResult {
  'object'?: (string);
  'assigned'?: (_loam_remote_v1_AssignedRange)[];
  'groups'?: (number);
}

export interface WalCommitResult__Output {
  'object': (string);
  'assigned': (_loam_remote_v1_AssignedRange__Output)[];
  'groups': (number);
}
