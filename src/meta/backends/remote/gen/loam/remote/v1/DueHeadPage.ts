// Original file: src/meta/backends/remote/loam_remote.proto

import type { DueHead as _loam_remote_v1_DueHead, DueHead__Output as _loam_remote_v1_DueHead__Output } from '../../../loam/remote/v1/DueHead.js';

export interface DueHeadPage {
  'items'?: (_loam_remote_v1_DueHead)[];
  'next'?: (string);
  '_next'?: "next";
}

export interface DueHeadPage__Output {
  'items': (_loam_remote_v1_DueHead__Output)[];
  'next'?: (string);
  '_next'?: "next";
}
