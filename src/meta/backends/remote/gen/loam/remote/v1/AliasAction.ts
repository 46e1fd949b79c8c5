// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface _loam_remote_v1_AliasAction_Remove {
  'alias'?: (string);
}

export interface _loam_remote_v1_AliasAction_Remove__Output {
  'alias': (string);
}

export interface _loam_remote_v1_AliasAction_Set {
  'alias'?: (string);
  'collection'?: (number | string | Long);
}

export interface _loam_remote_v1_AliasAction_Set__Output {
  'alias': (string);
  'collection': (number);
}

export interface AliasAction {
  'set'?: (_loam_remote_v1_AliasAction_Set | null);
  'remove'?: (_loam_remote_v1_AliasAction_Remove | null);
  'op'?: "set"|"remove";
}

export interface AliasAction__Output {
  'set'?: (_loam_remote_v1_AliasAction_Set__Output | null);
  'remove'?: (_loam_remote_v1_AliasAction_Remove__Output | null);
  'op'?: "set"|"remove";
}
