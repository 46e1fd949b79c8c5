// Original file: src/meta/backends/remote/loam_remote.proto

import type { CollectionSchema as _loam_remote_v1_CollectionSchema, CollectionSchema__Output as _loam_remote_v1_CollectionSchema__Output } from '../../../loam/remote/v1/CollectionSchema.js';
import type { WriteContext as _loam_remote_v1_WriteContext, WriteContext__Output as _loam_remote_v1_WriteContext__Output } from '../../../loam/remote/v1/WriteContext.js';
import type { Long } from '@grpc/proto-loader';

export interface UpdateCollectionSchemaRequest {
  'ns'?: (number | string | Long);
  'collection'?: (number | string | Long);
  'expectedVersion'?: (number | string | Long);
  'schema'?: (_loam_remote_v1_CollectionSchema | null);
  'w'?: (_loam_remote_v1_WriteContext | null);
}

export interface UpdateCollectionSchemaRequest__Output {
  'ns': (number);
  'collection': (number);
  'expectedVersion': (number);
  'schema': (_loam_remote_v1_CollectionSchema__Output | null);
  'w': (_loam_remote_v1_WriteContext__Output | null);
}
