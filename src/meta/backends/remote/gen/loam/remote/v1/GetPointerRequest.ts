// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface GetPointerRequest {
  'ns'?: (number | string | Long);
  'key'?: (string);
}

export interface GetPointerRequest__Output {
  'ns': (number);
  'key': (string);
}
