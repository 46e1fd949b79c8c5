// Original file: src/meta/backends/remote/loam_remote.proto

import type { Role as _loam_remote_v1_Role, Role__Output as _loam_remote_v1_Role__Output } from '../../../loam/remote/v1/Role.js';
import type { BindingTarget as _loam_remote_v1_BindingTarget, BindingTarget__Output as _loam_remote_v1_BindingTarget__Output } from '../../../loam/remote/v1/BindingTarget.js';

export interface BindingRequest {
  'org'?: (string);
  'subject'?: (string);
  'role'?: (_loam_remote_v1_Role);
  'target'?: (_loam_remote_v1_BindingTarget | null);
  'requestId'?: (string);
}

export interface BindingRequest__Output {
  'org': (string);
  'subject': (string);
  'role': (_loam_remote_v1_Role__Output);
  'target': (_loam_remote_v1_BindingTarget__Output | null);
  'requestId': (string);
}
