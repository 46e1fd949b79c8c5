// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface MembersRequest {
  'at'?: (number | string | Long);
  '_at'?: "at";
}

export interface MembersRequest__Output {
  'at'?: (number);
  '_at'?: "at";
}
