// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface DueHead {
  'ns'?: (number | string | Long);
  'stream'?: (number | string | Long);
  'partition'?: (number);
  'mark'?: (number | string | Long);
  'due'?: (number | string | Long);
}

export interface DueHead__Output {
  'ns': (number);
  'stream': (number);
  'partition': (number);
  'mark': (number);
  'due': (number);
}
