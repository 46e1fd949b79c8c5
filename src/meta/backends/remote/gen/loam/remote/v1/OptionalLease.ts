// Original file: src/meta/backends/remote/loam_remote.proto

import type { Lease as _loam_remote_v1_Lease, Lease__Output as _loam_remote_v1_Lease__Output } from '../../../loam/remote/v1/Lease.js';

export interface OptionalLease {
  'lease'?: (_loam_remote_v1_Lease | null);
  '_lease'?: "lease";
}

export interface OptionalLease__Output {
  'lease'?: (_loam_remote_v1_Lease__Output | null);
  '_lease'?: "lease";
}
