// Original file: src/meta/backends/remote/loam_remote.proto

import type { ErasureRow as _loam_remote_v1_ErasureRow, ErasureRow__Output as _loam_remote_v1_ErasureRow__Output } from '../../../loam/remote/v1/ErasureRow.js';

export interface ErasurePage {
  'items'?: (_loam_remote_v1_ErasureRow)[];
  'next'?: (string);
  '_next'?: "next";
}

export interface ErasurePage__Output {
  'items': (_loam_remote_v1_ErasureRow__Output)[];
  'next'?: (string);
  '_next'?: "next";
}
