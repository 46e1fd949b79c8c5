// Original file: src/meta/backends/remote/loam_remote.proto

import type { QuotaOverride as _loam_remote_v1_QuotaOverride, QuotaOverride__Output as _loam_remote_v1_QuotaOverride__Output } from '../../../loam/remote/v1/QuotaOverride.js';

export interface QuotaOverrideList {
  'items'?: (_loam_remote_v1_QuotaOverride)[];
}

export interface QuotaOverrideList__Output {
  'items': (_loam_remote_v1_QuotaOverride__Output)[];
}
