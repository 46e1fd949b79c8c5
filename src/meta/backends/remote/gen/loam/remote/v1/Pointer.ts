// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface Pointer {
  'ns'?: (number | string | Long);
  'key'?: (string);
  'version'?: (number | string | Long);
  'value'?: (string);
  'stamp'?: (number | string | Long);
}

export interface Pointer__Output {
  'ns': (number);
  'key': (string);
  'version': (number);
  'value': (string);
  'stamp': (number);
}
