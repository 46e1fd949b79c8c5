// Original file: src/meta/backends/remote/loam_remote.proto

import type { ErasureRow as _loam_remote_v1_ErasureRow, ErasureRow__Output as _loam_remote_v1_ErasureRow__Output } from '../../../loam/remote/v1/ErasureRow.js';

export interface CreateErasureRequest {
  'row'?: (_loam_remote_v1_ErasureRow | null);
  'requestId'?: (string);
}

export interface CreateErasureRequest__Output {
  'row': (_loam_remote_v1_ErasureRow__Output | null);
  'requestId': (string);
}
