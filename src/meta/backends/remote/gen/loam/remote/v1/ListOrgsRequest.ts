// Original file: src/meta/backends/remote/loam_remote.proto

import type { ControlPageRequest as _loam_remote_v1_ControlPageRequest, ControlPageRequest__Output as _loam_remote_v1_ControlPageRequest__Output } from '../../../loam/remote/v1/ControlPageRequest.js';

export interface ListOrgsRequest {
  'page'?: (_loam_remote_v1_ControlPageRequest | null);
}

export interface ListOrgsRequest__Output {
  'page': (_loam_remote_v1_ControlPageRequest__Output | null);
}
