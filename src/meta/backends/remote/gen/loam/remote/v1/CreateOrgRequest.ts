// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface CreateOrgRequest {
  'id'?: (string);
  'at'?: (number | string | Long);
  'requestId'?: (string);
  '_at'?: "at";
}

export interface CreateOrgRequest__Output {
  'id': (string);
  'at'?: (number);
  'requestId': (string);
  '_at'?: "at";
}
