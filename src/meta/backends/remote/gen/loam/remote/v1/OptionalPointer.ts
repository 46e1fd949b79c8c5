// Original file: src/meta/backends/remote/loam_remote.proto

import type { Pointer as _loam_remote_v1_Pointer, Pointer__Output as _loam_remote_v1_Pointer__Output } from '../../../loam/remote/v1/Pointer.js';

export interface OptionalPointer {
  'pointer'?: (_loam_remote_v1_Pointer | null);
  '_pointer'?: "pointer";
}

export interface OptionalPointer__Output {
  'pointer'?: (_loam_remote_v1_Pointer__Output | null);
  '_pointer'?: "pointer";
}
