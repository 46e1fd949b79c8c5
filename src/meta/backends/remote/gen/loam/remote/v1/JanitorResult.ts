// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface JanitorResult {
  'collections'?: (number | string | Long);
  'streams'?: (number | string | Long);
  'done'?: (boolean);
}

export interface JanitorResult__Output {
  'collections': (number);
  'streams': (number);
  'done': (boolean);
}
