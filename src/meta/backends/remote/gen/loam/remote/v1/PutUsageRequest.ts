// Original file: src/meta/backends/remote/loam_remote.proto

import type { PutUsageRow as _loam_remote_v1_PutUsageRow, PutUsageRow__Output as _loam_remote_v1_PutUsageRow__Output } from '../../../loam/remote/v1/PutUsageRow.js';
import type { Long } from '@grpc/proto-loader';

export interface PutUsageRequest {
  'rows'?: (_loam_remote_v1_PutUsageRow)[];
  'at'?: (number | string | Long);
  'requestId'?: (string);
  '_at'?: "at";
}

export interface PutUsageRequest__Output {
  'rows': (_loam_remote_v1_PutUsageRow__Output)[];
  'at'?: (number);
  'requestId': (string);
  '_at'?: "at";
}
