// Original file: src/meta/backends/remote/loam_remote.proto

import type { WriteContext as _loam_remote_v1_WriteContext, WriteContext__Output as _loam_remote_v1_WriteContext__Output } from '../../../loam/remote/v1/WriteContext.js';

export interface ReleaseClaimRequest {
  'path'?: (string);
  'owner'?: (string);
  'deleted'?: (boolean);
  'w'?: (_loam_remote_v1_WriteContext | null);
}

export interface ReleaseClaimRequest__Output {
  'path': (string);
  'owner': (string);
  'deleted': (boolean);
  'w': (_loam_remote_v1_WriteContext__Output | null);
}
