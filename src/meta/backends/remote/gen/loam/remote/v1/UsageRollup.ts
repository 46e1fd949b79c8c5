// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface UsageRollup {
  'org'?: (string);
  'ns'?: (number | string | Long);
  'metric'?: (string);
  'window'?: (number | string | Long);
  'value'?: (number | string);
  'updated'?: (number | string | Long);
  '_ns'?: "ns";
}

export interface UsageRollup__Output {
  'org': (string);
  'ns'?: (number);
  'metric': (string);
  'window': (number);
  'value': (number);
  'updated': (number);
  '_ns'?: "ns";
}
