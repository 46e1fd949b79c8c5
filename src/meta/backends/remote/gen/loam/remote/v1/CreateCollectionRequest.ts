// Original file: src/meta/backends/remote/loam_remote.proto

import type { CollectionSchema as _loam_remote_v1_CollectionSchema, CollectionSchema__Output as _loam_remote_v1_CollectionSchema__Output } from '../../../loam/remote/v1/CollectionSchema.js';
import type { Retention as _loam_remote_v1_Retention, Retention__Output as _loam_remote_v1_Retention__Output } from '../../../loam/remote/v1/Retention.js';
import type { WriteContext as _loam_remote_v1_WriteContext, WriteContext__Output as _loam_remote_v1_WriteContext__Output } from '../../../loam/remote/v1/WriteContext.js';
import type { Long } from '@grpc/proto-loader';

export interface CreateCollectionRequest {
  'ns'?: (number | string | Long);
  'name'?: (string);
  'schema'?: (_loam_remote_v1_CollectionSchema | null);
  'partitions'?: (number);
  'retention'?: (_loam_remote_v1_Retention | null);
  'manifestRetentionMs'?: (number | string | Long);
  'w'?: (_loam_remote_v1_WriteContext | null);
  '_retention'?: "retention";
  '_manifestRetentionMs'?: "manifestRetentionMs";
}

export interface CreateCollectionRequest__Output {
  'ns': (number);
  'name': (string);
  'schema': (_loam_remote_v1_CollectionSchema__Output | null);
  'partitions': (number);
  'retention'?: (_loam_remote_v1_Retention__Output | null);
  'manifestRetentionMs'?: (number);
  'w': (_loam_remote_v1_WriteContext__Output | null);
  '_retention'?: "retention";
  '_manifestRetentionMs'?: "manifestRetentionMs";
}
