// Original file: src/meta/backends/remote/loam_remote.proto

import type { IndexEntry as _loam_remote_v1_IndexEntry, IndexEntry__Output as _loam_remote_v1_IndexEntry__Output } from '../../../loam/remote/v1/IndexEntry.js';

export interface SwapSegmentResult {
  'entry'?: (_loam_remote_v1_IndexEntry | null);
}

export interface SwapSegmentResult__Output {
  'entry': (_loam_remote_v1_IndexEntry__Output | null);
}
