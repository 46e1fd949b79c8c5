// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface DestroyErasureKeysRequest {
  'org'?: (string);
  'at'?: (number | string | Long);
  'requestId'?: (string);
  '_at'?: "at";
}

export interface DestroyErasureKeysRequest__Output {
  'org': (string);
  'at'?: (number);
  'requestId': (string);
  '_at'?: "at";
}
