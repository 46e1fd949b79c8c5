// Original file: src/meta/backends/remote/loam_remote.proto

import type { AliasAction as _loam_remote_v1_AliasAction, AliasAction__Output as _loam_remote_v1_AliasAction__Output } from '../../../loam/remote/v1/AliasAction.js';
import type { WriteContext as _loam_remote_v1_WriteContext, WriteContext__Output as _loam_remote_v1_WriteContext__Output } from '../../../loam/remote/v1/WriteContext.js';
import type { Long } from '@grpc/proto-loader';

export interface UpdateAliasesRequest {
  'ns'?: (number | string | Long);
  'actions'?: (_loam_remote_v1_AliasAction)[];
  'expectedVersion'?: (number | string | Long);
  'w'?: (_loam_remote_v1_WriteContext | null);
  '_expectedVersion'?: "expectedVersion";
}

export interface UpdateAliasesRequest__Output {
  'ns': (number);
  'actions': (_loam_remote_v1_AliasAction__Output)[];
  'expectedVersion'?: (number);
  'w': (_loam_remote_v1_WriteContext__Output | null);
  '_expectedVersion'?: "expectedVersion";
}
