// Original file: src/meta/backends/remote/loam_remote.proto

import type { LeaseScope as _loam_remote_v1_LeaseScope, LeaseScope__Output as _loam_remote_v1_LeaseScope__Output } from '../../../loam/remote/v1/LeaseScope.js';
import type { WriteContext as _loam_remote_v1_WriteContext, WriteContext__Output as _loam_remote_v1_WriteContext__Output } from '../../../loam/remote/v1/WriteContext.js';
import type { Long } from '@grpc/proto-loader';

export interface ReleaseLeaseRequest {
  'scope'?: (_loam_remote_v1_LeaseScope | null);
  'key'?: (string);
  'owner'?: (string);
  'epoch'?: (number | string | Long);
  'w'?: (_loam_remote_v1_WriteContext | null);
}

export interface ReleaseLeaseRequest__Output {
  'scope': (_loam_remote_v1_LeaseScope__Output | null);
  'key': (string);
  'owner': (string);
  'epoch': (number);
  'w': (_loam_remote_v1_WriteContext__Output | null);
}
