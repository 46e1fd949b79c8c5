// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface SegmentReferencedRequest {
  'ns'?: (number | string | Long);
  'stream'?: (number | string | Long);
  'path'?: (string);
}

export interface SegmentReferencedRequest__Output {
  'ns': (number);
  'stream': (number);
  'path': (string);
}
