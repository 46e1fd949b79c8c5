// Original file: src/meta/backends/remote/loam_remote.proto

import type { Fence as _loam_remote_v1_Fence, Fence__Output as _loam_remote_v1_Fence__Output } from '../../../loam/remote/v1/Fence.js';
import type { WriteContext as _loam_remote_v1_WriteContext, WriteContext__Output as _loam_remote_v1_WriteContext__Output } from '../../../loam/remote/v1/WriteContext.js';
import type { Long } from '@grpc/proto-loader';

export interface TrimPartitionRequest {
  'ns'?: (number | string | Long);
  'stream'?: (number | string | Long);
  'partition'?: (number);
  'logStart'?: (number | string | Long);
  'fence'?: (_loam_remote_v1_Fence | null);
  'w'?: (_loam_remote_v1_WriteContext | null);
  '_fence'?: "fence";
}

export interface TrimPartitionRequest__Output {
  'ns': (number);
  'stream': (number);
  'partition': (number);
  'logStart': (number);
  'fence'?: (_loam_remote_v1_Fence__Output | null);
  'w': (_loam_remote_v1_WriteContext__Output | null);
  '_fence'?: "fence";
}
