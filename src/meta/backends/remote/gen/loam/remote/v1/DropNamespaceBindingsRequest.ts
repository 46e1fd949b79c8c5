// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface DropNamespaceBindingsRequest {
  'org'?: (string);
  'ns'?: (number | string | Long);
  'requestId'?: (string);
}

export interface DropNamespaceBindingsRequest__Output {
  'org': (string);
  'ns': (number);
  'requestId': (string);
}
