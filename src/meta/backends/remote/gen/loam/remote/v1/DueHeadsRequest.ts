// Original file: src/meta/backends/remote/loam_remote.proto

import type { PageRequest as _loam_remote_v1_PageRequest, PageRequest__Output as _loam_remote_v1_PageRequest__Output } from '../../../loam/remote/v1/PageRequest.js';
import type { Long } from '@grpc/proto-loader';

export interface DueHeadsRequest {
  'before'?: (number | string | Long);
  'page'?: (_loam_remote_v1_PageRequest | null);
}

export interface DueHeadsRequest__Output {
  'before': (number);
  'page': (_loam_remote_v1_PageRequest__Output | null);
}
