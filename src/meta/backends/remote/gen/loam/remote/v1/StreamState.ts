// Original file: src/meta/backends/remote/loam_remote.proto

import type { Stream as _loam_remote_v1_Stream, Stream__Output as _loam_remote_v1_Stream__Output } from '../../../loam/remote/v1/Stream.js';
import type { PartitionHead as _loam_remote_v1_PartitionHead, PartitionHead__Output as _loam_remote_v1_PartitionHead__Output } from '../../../loam/remote/v1/PartitionHead.js';

export interface StreamState {
  'stream'?: (_loam_remote_v1_Stream | null);
  'heads'?: (_loam_remote_v1_PartitionHead)[];
}

export interface StreamState__Output {
  'stream': (_loam_remote_v1_Stream__Output | null);
  'heads': (_loam_remote_v1_PartitionHead__Output)[];
}
