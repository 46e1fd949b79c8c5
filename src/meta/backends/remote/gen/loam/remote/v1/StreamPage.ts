// Original file: src/meta/backends/remote/loam_remote.proto

import type { Stream as _loam_remote_v1_Stream, Stream__Output as _loam_remote_v1_Stream__Output } from '../../../loam/remote/v1/Stream.js';

export interface StreamPage {
  'items'?: (_loam_remote_v1_Stream)[];
  'next'?: (string);
  '_next'?: "next";
}

export interface StreamPage__Output {
  'items': (_loam_remote_v1_Stream__Output)[];
  'next'?: (string);
  '_next'?: "next";
}
