// Original file: src/meta/backends/remote/loam_remote.proto

import type { CollectionSchema as _loam_remote_v1_CollectionSchema, CollectionSchema__Output as _loam_remote_v1_CollectionSchema__Output } from '../../../loam/remote/v1/CollectionSchema.js';
import type { EntityState as _loam_remote_v1_EntityState, EntityState__Output as _loam_remote_v1_EntityState__Output } from '../../../loam/remote/v1/EntityState.js';
import type { Long } from '@grpc/proto-loader';

export interface Collection {
  'ns'?: (number | string | Long);
  'id'?: (number | string | Long);
  'name'?: (string);
  'schema'?: (_loam_remote_v1_CollectionSchema | null);
  'schemaVersion'?: (number | string | Long);
  'streamId'?: (number | string | Long);
  'linkId'?: (number | string | Long);
  'partitions'?: (number);
  'manifestRetentionMs'?: (number | string | Long);
  'state'?: (_loam_remote_v1_EntityState);
  'created'?: (number | string | Long);
}

export interface Collection__Output {
  'ns': (number);
  'id': (number);
  'name': (string);
  'schema': (_loam_remote_v1_CollectionSchema__Output | null);
  'schemaVersion': (number);
  'streamId': (number);
  'linkId': (number);
  'partitions': (number);
  'manifestRetentionMs': (number);
  'state': (_loam_remote_v1_EntityState__Output);
  'created': (number);
}
