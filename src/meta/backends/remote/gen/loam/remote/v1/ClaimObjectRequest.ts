// Original file: src/meta/backends/remote/loam_remote.proto

import type { Fence as _loam_remote_v1_Fence, Fence__Output as _loam_remote_v1_Fence__Output } from '../../../loam/remote/v1/Fence.js';
import type { WriteContext as _loam_remote_v1_WriteContext, WriteContext__Output as _loam_remote_v1_WriteContext__Output } from '../../../loam/remote/v1/WriteContext.js';

export interface ClaimObjectRequest {
  'path'?: (string);
  'owner'?: (string);
  'fence'?: (_loam_remote_v1_Fence | null);
  'w'?: (_loam_remote_v1_WriteContext | null);
  '_fence'?: "fence";
}

export interface ClaimObjectRequest__Output {
  'path': (string);
  'owner': (string);
  'fence'?: (_loam_remote_v1_Fence__Output | null);
  'w': (_loam_remote_v1_WriteContext__Output | null);
  '_fence'?: "fence";
}
