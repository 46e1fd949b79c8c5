// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface StreamStateRequest {
  'ns'?: (number | string | Long);
  'stream'?: (number | string | Long);
}

export interface StreamStateRequest__Output {
  'ns': (number);
  'stream': (number);
}
