// Original file: src/meta/backends/remote/loam_remote.proto

import type { RetiredWalObject as _loam_remote_v1_RetiredWalObject, RetiredWalObject__Output as _loam_remote_v1_RetiredWalObject__Output } from '../../../loam/remote/v1/RetiredWalObject.js';

export interface RetiredWalObjectPage {
  'items'?: (_loam_remote_v1_RetiredWalObject)[];
  'next'?: (string);
  '_next'?: "next";
}

export interface RetiredWalObjectPage__Output {
  'items': (_loam_remote_v1_RetiredWalObject__Output)[];
  'next'?: (string);
  '_next'?: "next";
}
