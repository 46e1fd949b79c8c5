// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface PutUsageRow {
  'org'?: (string);
  'ns'?: (number | string | Long);
  'metric'?: (string);
  'window'?: (number | string | Long);
  'value'?: (number | string);
  '_ns'?: "ns";
}

export interface PutUsageRow__Output {
  'org': (string);
  'ns'?: (number);
  'metric': (string);
  'window': (number);
  'value': (number);
  '_ns'?: "ns";
}
