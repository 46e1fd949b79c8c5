// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface ApiKeyRecord {
  'keyId'?: (string);
  'org'?: (string);
  'secretHash'?: (string);
  'scopes'?: (string)[];
  'expiry'?: (number | string | Long);
  'createdBy'?: (string);
  'created'?: (number | string | Long);
  'lastUsed'?: (number | string | Long);
  'revoked'?: (number | string | Long);
  '_expiry'?: "expiry";
  '_lastUsed'?: "lastUsed";
  '_revoked'?: "revoked";
}

export interface ApiKeyRecord__Output {
  'keyId': (string);
  'org': (string);
  'secretHash': (string);
  'scopes': (string)[];
  'expiry'?: (number);
  'createdBy': (string);
  'created': (number);
  'lastUsed'?: (number);
  'revoked'?: (number);
  '_expiry'?: "expiry";
  '_lastUsed'?: "lastUsed";
  '_revoked'?: "revoked";
}
