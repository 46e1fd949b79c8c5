// Original file: src/meta/backends/remote/loam_remote.proto

import type { ControlPageRequest as _loam_remote_v1_ControlPageRequest, ControlPageRequest__Output as _loam_remote_v1_ControlPageRequest__Output } from '../../../loam/remote/v1/ControlPageRequest.js';

export interface ListBindingsRequest {
  'org'?: (string);
  'page'?: (_loam_remote_v1_ControlPageRequest | null);
}

export interface ListBindingsRequest__Output {
  'org': (string);
  'page': (_loam_remote_v1_ControlPageRequest__Output | null);
}
