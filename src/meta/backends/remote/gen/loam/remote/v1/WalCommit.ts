// Original file: src/meta/backends/remote/loam_remote.proto

import type { WalChunk as _loam_remote_v1_WalChunk, WalChunk__Output as _loam_remote_v1_WalChunk__Output } from '../../../loam/remote/v1/WalChunk.js';
import type { Long } from '@grpc/proto-loader';

export interface WalCommit {
  'object'?: (string);
  'objectStamp'?: (number | string | Long);
  'chunks'?: (_loam_remote_v1_WalChunk)[];
}

export interface WalCommit__Output {
  'object': (string);
  'objectStamp': (number);
  'chunks': (_loam_remote_v1_WalChunk__Output)[];
}
