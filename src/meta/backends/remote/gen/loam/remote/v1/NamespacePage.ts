// Original file: src/meta/backends/remote/loam_remote.proto

import type { Namespace as _loam_remote_v1_Namespace, Namespace__Output as _loam_remote_v1_Namespace__Output } from '../../../loam/remote/v1/Namespace.js';

export interface NamespacePage {
  'items'?: (_loam_remote_v1_Namespace)[];
  'next'?: (string);
  '_next'?: "next";
}

export interface NamespacePage__Output {
  'items': (_loam_remote_v1_Namespace__Output)[];
  'next'?: (string);
  '_next'?: "next";
}
