// Original file: src/meta/backends/remote/loam_remote.proto

import type { Tag as _loam_remote_v1_Tag, Tag__Output as _loam_remote_v1_Tag__Output } from '../../../loam/remote/v1/Tag.js';

export interface TagPage {
  'items'?: (_loam_remote_v1_Tag)[];
  'next'?: (string);
  '_next'?: "next";
}

export interface TagPage__Output {
  'items': (_loam_remote_v1_Tag__Output)[];
  'next'?: (string);
  '_next'?: "next";
}
