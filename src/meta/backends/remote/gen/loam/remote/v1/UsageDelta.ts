// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface UsageDelta {
  'org'?: (string);
  'ns'?: (number | string | Long);
  'metric'?: (string);
  'window'?: (number | string | Long);
  'delta'?: (number | string);
  '_ns'?: "ns";
}

export interface UsageDelta__Output {
  'org': (string);
  'ns'?: (number);
  'metric': (string);
  'window': (number);
  'delta': (number);
  '_ns'?: "ns";
}
