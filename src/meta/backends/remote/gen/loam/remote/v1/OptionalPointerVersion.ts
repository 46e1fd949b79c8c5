// Original file: src/meta/backends/remote/loam_remote.proto

import type { PointerVersion as _loam_remote_v1_PointerVersion, PointerVersion__Output as _loam_remote_v1_PointerVersion__Output } from '../../../loam/remote/v1/PointerVersion.js';

export interface OptionalPointerVersion {
  'pointerVersion'?: (_loam_remote_v1_PointerVersion | null);
  '_pointerVersion'?: "pointerVersion";
}

export interface OptionalPointerVersion__Output {
  'pointerVersion'?: (_loam_remote_v1_PointerVersion__Output | null);
  '_pointerVersion'?: "pointerVersion";
}
