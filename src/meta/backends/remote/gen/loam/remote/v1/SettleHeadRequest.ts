// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface SettleHeadRequest {
  'ns'?: (number | string | Long);
  'stream'?: (number | string | Long);
  'partition'?: (number);
  'mark'?: (number | string | Long);
  'due'?: (number | string | Long);
  '_due'?: "due";
}

export interface SettleHeadRequest__Output {
  'ns': (number);
  'stream': (number);
  'partition': (number);
  'mark': (number);
  'due'?: (number);
  '_due'?: "due";
}
