// Original file: src/meta/backends/remote/loam_remote.proto

import type { IndexEntry as _loam_remote_v1_IndexEntry, IndexEntry__Output as _loam_remote_v1_IndexEntry__Output } from '../../../loam/remote/v1/IndexEntry.js';
import type { Long } from '@grpc/proto-loader';

export interface PartitionIndex {
  'partition'?: (number);
  'logStart'?: (number | string | Long);
  'next'?: (number | string | Long);
  'entries'?: (_loam_remote_v1_IndexEntry)[];
  'nextFrom'?: (number | string | Long);
  '_nextFrom'?: "nextFrom";
}

export interface PartitionIndex__Output {
  'partition': (number);
  'logStart': (number);
  'next': (number);
  'entries': (_loam_remote_v1_IndexEntry__Output)[];
  'nextFrom'?: (number);
  '_nextFrom'?: "nextFrom";
}
