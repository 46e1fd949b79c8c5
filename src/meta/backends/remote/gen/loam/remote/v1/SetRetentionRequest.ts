// Original file: src/meta/backends/remote/loam_remote.proto

import type { Retention as _loam_remote_v1_Retention, Retention__Output as _loam_remote_v1_Retention__Output } from '../../../loam/remote/v1/Retention.js';
import type { WriteContext as _loam_remote_v1_WriteContext, WriteContext__Output as _loam_remote_v1_WriteContext__Output } from '../../../loam/remote/v1/WriteContext.js';
import type { Long } from '@grpc/proto-loader';

export interface SetRetentionRequest {
  'ns'?: (number | string | Long);
  'stream'?: (number | string | Long);
  'retention'?: (_loam_remote_v1_Retention | null);
  'w'?: (_loam_remote_v1_WriteContext | null);
}

export interface SetRetentionRequest__Output {
  'ns': (number);
  'stream': (number);
  'retention': (_loam_remote_v1_Retention__Output | null);
  'w': (_loam_remote_v1_WriteContext__Output | null);
}
