// Original file: src/meta/backends/remote/loam_remote.proto

import type { WatchScope as _loam_remote_v1_WatchScope, WatchScope__Output as _loam_remote_v1_WatchScope__Output } from '../../../loam/remote/v1/WatchScope.js';
import type { Long } from '@grpc/proto-loader';

export interface WatchChangesRequest {
  'scope'?: (_loam_remote_v1_WatchScope | null);
  'since'?: (number | string | Long);
}

export interface WatchChangesRequest__Output {
  'scope': (_loam_remote_v1_WatchScope__Output | null);
  'since': (number);
}
