// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface RevokeKeyRequest {
  'org'?: (string);
  'keyId'?: (string);
  'at'?: (number | string | Long);
  'requestId'?: (string);
  '_at'?: "at";
}

export interface RevokeKeyRequest__Output {
  'org': (string);
  'keyId': (string);
  'at'?: (number);
  'requestId': (string);
  '_at'?: "at";
}
