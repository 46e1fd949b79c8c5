// Original file: src/meta/backends/remote/loam_remote.proto

import type { ReadOptions as _loam_remote_v1_ReadOptions, ReadOptions__Output as _loam_remote_v1_ReadOptions__Output } from '../../../loam/remote/v1/ReadOptions.js';
import type { Long } from '@grpc/proto-loader';

export interface GetStreamRequest {
  'ns'?: (number | string | Long);
  'stream'?: (number | string | Long);
  'opts'?: (_loam_remote_v1_ReadOptions | null);
}

export interface GetStreamRequest__Output {
  'ns': (number);
  'stream': (number);
  'opts': (_loam_remote_v1_ReadOptions__Output | null);
}
