// Original file: src/meta/backends/remote/loam_remote.proto

import type { Collection as _loam_remote_v1_Collection, Collection__Output as _loam_remote_v1_Collection__Output } from '../../../loam/remote/v1/Collection.js';
import type { Pointer as _loam_remote_v1_Pointer, Pointer__Output as _loam_remote_v1_Pointer__Output } from '../../../loam/remote/v1/Pointer.js';
import type { PartitionHead as _loam_remote_v1_PartitionHead, PartitionHead__Output as _loam_remote_v1_PartitionHead__Output } from '../../../loam/remote/v1/PartitionHead.js';

export interface CollectionHead {
  'collection'?: (_loam_remote_v1_Collection | null);
  'pointer'?: (_loam_remote_v1_Pointer | null);
  'heads'?: (_loam_remote_v1_PartitionHead)[];
  '_pointer'?: "pointer";
}

export interface CollectionHead__Output {
  'collection': (_loam_remote_v1_Collection__Output | null);
  'pointer'?: (_loam_remote_v1_Pointer__Output | null);
  'heads': (_loam_remote_v1_PartitionHead__Output)[];
  '_pointer'?: "pointer";
}
