// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface _loam_remote_v1_ObjectRef_Claim {
  'owner'?: (string);
  'stamp'?: (number | string | Long);
}

export interface _loam_remote_v1_ObjectRef_Claim__Output {
  'owner': (string);
  'stamp': (number);
}

export interface ObjectRef {
  'path'?: (string);
  'refs'?: (number | string | Long);
  'claim'?: (_loam_remote_v1_ObjectRef_Claim | null);
  '_claim'?: "claim";
}

export interface ObjectRef__Output {
  'path': (string);
  'refs': (number);
  'claim'?: (_loam_remote_v1_ObjectRef_Claim__Output | null);
  '_claim'?: "claim";
}
