// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface PointerVersionRequest {
  'ns'?: (number | string | Long);
  'key'?: (string);
  'version'?: (number | string | Long);
}

export interface PointerVersionRequest__Output {
  'ns': (number);
  'key': (string);
  'version': (number);
}
