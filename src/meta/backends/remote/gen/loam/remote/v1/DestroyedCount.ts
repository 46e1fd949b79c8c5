// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface DestroyedCount {
  'count'?: (number | string | Long);
}

export interface DestroyedCount__Output {
  'count': (number);
}
