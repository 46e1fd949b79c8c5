// Original file: src/meta/backends/remote/loam_remote.proto

import type { LeaseScope as _loam_remote_v1_LeaseScope, LeaseScope__Output as _loam_remote_v1_LeaseScope__Output } from '../../../loam/remote/v1/LeaseScope.js';
import type { Long } from '@grpc/proto-loader';

export interface Fence {
  'scope'?: (_loam_remote_v1_LeaseScope | null);
  'key'?: (string);
  'epoch'?: (number | string | Long);
}

export interface Fence__Output {
  'scope': (_loam_remote_v1_LeaseScope__Output | null);
  'key': (string);
  'epoch': (number);
}
