// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface WriteContext {
  'stamp'?: (number | string | Long);
  'requestId'?: (string);
  '_stamp'?: "stamp";
}

export interface WriteContext__Output {
  'stamp'?: (number);
  'requestId': (string);
  '_stamp'?: "stamp";
}
