// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface CollectionByNameRequest {
  'ns'?: (number | string | Long);
  'name'?: (string);
}

export interface CollectionByNameRequest__Output {
  'ns': (number);
  'name': (string);
}
