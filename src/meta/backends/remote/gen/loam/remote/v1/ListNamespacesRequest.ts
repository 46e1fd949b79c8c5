// Original file: src/meta/backends/remote/loam_remote.proto

import type { PageRequest as _loam_remote_v1_PageRequest, PageRequest__Output as _loam_remote_v1_PageRequest__Output } from '../../../loam/remote/v1/PageRequest.js';

export interface ListNamespacesRequest {
  'org'?: (string);
  'page'?: (_loam_remote_v1_PageRequest | null);
}

export interface ListNamespacesRequest__Output {
  'org': (string);
  'page': (_loam_remote_v1_PageRequest__Output | null);
}
