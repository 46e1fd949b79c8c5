// Original file: src/meta/backends/remote/loam_remote.proto

import type { RoleBinding as _loam_remote_v1_RoleBinding, RoleBinding__Output as _loam_remote_v1_RoleBinding__Output } from '../../../loam/remote/v1/RoleBinding.js';

export interface RoleBindingPage {
  'items'?: (_loam_remote_v1_RoleBinding)[];
  'next'?: (string);
  '_next'?: "next";
}

export interface RoleBindingPage__Output {
  'items': (_loam_remote_v1_RoleBinding__Output)[];
  'next'?: (string);
  '_next'?: "next";
}
