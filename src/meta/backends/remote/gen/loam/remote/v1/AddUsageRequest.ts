// Original file: src/meta/backends/remote/loam_remote.proto

import type { UsageDelta as _loam_remote_v1_UsageDelta, UsageDelta__Output as _loam_remote_v1_UsageDelta__Output } from '../../../loam/remote/v1/UsageDelta.js';
import type { Long } from '@grpc/proto-loader';

export interface AddUsageRequest {
  'rows'?: (_loam_remote_v1_UsageDelta)[];
  'at'?: (number | string | Long);
  'requestId'?: (string);
  '_at'?: "at";
}

export interface AddUsageRequest__Output {
  'rows': (_loam_remote_v1_UsageDelta__Output)[];
  'at'?: (number);
  'requestId': (string);
  '_at'?: "at";
}
