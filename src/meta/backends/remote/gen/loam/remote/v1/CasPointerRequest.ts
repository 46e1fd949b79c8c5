// Original file: src/meta/backends/remote/loam_remote.proto

import type { Fence as _loam_remote_v1_Fence, Fence__Output as _loam_remote_v1_Fence__Output } from '../../../loam/remote/v1/Fence.js';
import type { WriteContext as _loam_remote_v1_WriteContext, WriteContext__Output as _loam_remote_v1_WriteContext__Output } from '../../../loam/remote/v1/WriteContext.js';
import type { Long } from '@grpc/proto-loader';

export interface CasPointerRequest {
  'ns'?: (number | string | Long);
  'key'?: (string);
  'expectedVersion'?: (number | string | Long);
  'value'?: (string);
  'fence'?: (_loam_remote_v1_Fence | null);
  'w'?: (_loam_remote_v1_WriteContext | null);
  '_expectedVersion'?: "expectedVersion";
  '_fence'?: "fence";
}

export interface CasPointerRequest__Output {
  'ns': (number);
  'key': (string);
  'expectedVersion'?: (number);
  'value': (string);
  'fence'?: (_loam_remote_v1_Fence__Output | null);
  'w': (_loam_remote_v1_WriteContext__Output | null);
  '_expectedVersion'?: "expectedVersion";
  '_fence'?: "fence";
}
