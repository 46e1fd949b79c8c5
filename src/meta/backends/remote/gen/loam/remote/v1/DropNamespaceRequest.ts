// Original file: src/meta/backends/remote/loam_remote.proto

import type { WriteContext as _loam_remote_v1_WriteContext, WriteContext__Output as _loam_remote_v1_WriteContext__Output } from '../../../loam/remote/v1/WriteContext.js';
import type { Long } from '@grpc/proto-loader';

export interface DropNamespaceRequest {
  'ns'?: (number | string | Long);
  'w'?: (_loam_remote_v1_WriteContext | null);
}

export interface DropNamespaceRequest__Output {
  'ns': (number);
  'w': (_loam_remote_v1_WriteContext__Output | null);
}
