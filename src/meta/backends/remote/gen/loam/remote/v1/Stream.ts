// Original file: src/meta/backends/remote/loam_remote.proto

import type { Retention as _loam_remote_v1_Retention, Retention__Output as _loam_remote_v1_Retention__Output } from '../../../loam/remote/v1/Retention.js';
import type { EntityState as _loam_remote_v1_EntityState, EntityState__Output as _loam_remote_v1_EntityState__Output } from '../../../loam/remote/v1/EntityState.js';
import type { Long } from '@grpc/proto-loader';

export interface Stream {
  'ns'?: (number | string | Long);
  'id'?: (number | string | Long);
  'name'?: (string);
  'partitions'?: (number);
  'retention'?: (_loam_remote_v1_Retention | null);
  'implicit'?: (boolean);
  'state'?: (_loam_remote_v1_EntityState);
  'created'?: (number | string | Long);
}

export interface Stream__Output {
  'ns': (number);
  'id': (number);
  'name': (string);
  'partitions': (number);
  'retention': (_loam_remote_v1_Retention__Output | null);
  'implicit': (boolean);
  'state': (_loam_remote_v1_EntityState__Output);
  'created': (number);
}
