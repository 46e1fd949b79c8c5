// Original file: src/meta/backends/remote/loam_remote.proto

import type { IndexEntryKind as _loam_remote_v1_IndexEntryKind, IndexEntryKind__Output as _loam_remote_v1_IndexEntryKind__Output } from '../../../loam/remote/v1/IndexEntryKind.js';
import type { Long } from '@grpc/proto-loader';

export interface IndexEntry {
  'partition'?: (number);
  'start'?: (number | string | Long);
  'end'?: (number | string | Long);
  'kind'?: (_loam_remote_v1_IndexEntryKind);
  'path'?: (string);
  'byteStart'?: (number | string | Long);
  'byteEnd'?: (number | string | Long);
  'records'?: (number | string | Long);
}

export interface IndexEntry__Output {
  'partition': (number);
  'start': (number);
  'end': (number);
  'kind': (_loam_remote_v1_IndexEntryKind__Output);
  'path': (string);
  'byteStart': (number);
  'byteEnd': (number);
  'records': (number);
}
