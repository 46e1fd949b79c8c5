// Original file: src/meta/backends/remote/loam_remote.proto

import type { EntityState as _loam_remote_v1_EntityState, EntityState__Output as _loam_remote_v1_EntityState__Output } from '../../../loam/remote/v1/EntityState.js';
import type { Long } from '@grpc/proto-loader';

export interface Namespace {
  'id'?: (number | string | Long);
  'org'?: (string);
  'name'?: (string);
  'state'?: (_loam_remote_v1_EntityState);
  'created'?: (number | string | Long);
}

export interface Namespace__Output {
  'id': (number);
  'org': (string);
  'name': (string);
  'state': (_loam_remote_v1_EntityState__Output);
  'created': (number);
}
