// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface CollectionHeadRequest {
  'ns'?: (number | string | Long);
  'collection'?: (number | string | Long);
}

export interface CollectionHeadRequest__Output {
  'ns': (number);
  'collection': (number);
}
