// Original file: src/meta/backends/remote/loam_remote.proto

import type { OutboxEntry as _loam_remote_v1_OutboxEntry, OutboxEntry__Output as _loam_remote_v1_OutboxEntry__Output } from '../../../loam/remote/v1/OutboxEntry.js';

export interface OutboxEntryList {
  'items'?: (_loam_remote_v1_OutboxEntry)[];
}

export interface OutboxEntryList__Output {
  'items': (_loam_remote_v1_OutboxEntry__Output)[];
}
