// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface CreateKeyRequest {
  'keyId'?: (string);
  'org'?: (string);
  'secretHash'?: (string);
  'scopes'?: (string)[];
  'expiry'?: (number | string | Long);
  'createdBy'?: (string);
  'created'?: (number | string | Long);
  'requestId'?: (string);
  '_expiry'?: "expiry";
}

export interface CreateKeyRequest__Output {
  'keyId': (string);
  'org': (string);
  'secretHash': (string);
  'scopes': (string)[];
  'expiry'?: (number);
  'createdBy': (string);
  'created': (number);
  'requestId': (string);
  '_expiry'?: "expiry";
}
