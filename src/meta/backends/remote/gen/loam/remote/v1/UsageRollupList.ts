// Original file: src/meta/backends/remote/loam_remote.proto

import type { UsageRollup as _loam_remote_v1_UsageRollup, UsageRollup__Output as _loam_remote_v1_UsageRollup__Output } from '../../../loam/remote/v1/UsageRollup.js';

export interface UsageRollupList {
  'items'?: (_loam_remote_v1_UsageRollup)[];
}

export interface UsageRollupList__Output {
  'items': (_loam_remote_v1_UsageRollup__Output)[];
}
