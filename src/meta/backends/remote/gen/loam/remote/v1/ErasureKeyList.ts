// Original file: src/meta/backends/remote/loam_remote.proto

import type { ErasureKey as _loam_remote_v1_ErasureKey, ErasureKey__Output as _loam_remote_v1_ErasureKey__Output } from '../../../loam/remote/v1/ErasureKey.js';

export interface ErasureKeyList {
  'items'?: (_loam_remote_v1_ErasureKey)[];
}

export interface ErasureKeyList__Output {
  'items': (_loam_remote_v1_ErasureKey__Output)[];
}
