// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface GetAliasesRequest {
  'ns'?: (number | string | Long);
}

export interface GetAliasesRequest__Output {
  'ns': (number);
}
