// Original file: src/meta/backends/remote/loam_remote.proto

import type { ControlChange as _loam_remote_v1_ControlChange, ControlChange__Output as _loam_remote_v1_ControlChange__Output } from '../../../loam/remote/v1/ControlChange.js';

export interface ControlChangeList {
  'items'?: (_loam_remote_v1_ControlChange)[];
}

export interface ControlChangeList__Output {
  'items': (_loam_remote_v1_ControlChange__Output)[];
}
