// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface AssignedRange {
  'ns'?: (number | string | Long);
  'stream'?: (number | string | Long);
  'partition'?: (number);
  'start'?: (number | string | Long);
  'end'?: (number | string | Long);
  'group'?: (number);
}

export interface AssignedRange__Output {
  'ns': (number);
  'stream': (number);
  'partition': (number);
  'start': (number);
  'end': (number);
  'group': (number);
}
