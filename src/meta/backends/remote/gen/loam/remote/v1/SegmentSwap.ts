// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface SegmentSwap {
  'ns'?: (number | string | Long);
  'stream'?: (number | string | Long);
  'partition'?: (number);
  'start'?: (number | string | Long);
  'end'?: (number | string | Long);
  'path'?: (string);
  'byteStart'?: (number | string | Long);
  'byteEnd'?: (number | string | Long);
}

export interface SegmentSwap__Output {
  'ns': (number);
  'stream': (number);
  'partition': (number);
  'start': (number);
  'end': (number);
  'path': (string);
  'byteStart': (number);
  'byteEnd': (number);
}
