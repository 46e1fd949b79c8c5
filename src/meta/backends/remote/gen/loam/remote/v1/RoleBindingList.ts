// Original file: src/meta/backends/remote/loam_remote.proto

import type { RoleBinding as _loam_remote_v1_RoleBinding, RoleBinding__Output as _loam_remote_v1_RoleBinding__Output } from '../../../loam/remote/v1/RoleBinding.js';

export interface RoleBindingList {
  'items'?: (_loam_remote_v1_RoleBinding)[];
}

export interface RoleBindingList__Output {
  'items': (_loam_remote_v1_RoleBinding__Output)[];
}
