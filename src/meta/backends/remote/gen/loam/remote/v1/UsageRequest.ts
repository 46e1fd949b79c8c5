// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface UsageRequest {
  'org'?: (string);
  'metric'?: (string);
  'since'?: (number | string | Long);
  'limit'?: (number);
  'after'?: (string);
  '_metric'?: "metric";
  '_since'?: "since";
  '_limit'?: "limit";
  '_after'?: "after";
}

export interface UsageRequest__Output {
  'org': (string);
  'metric'?: (string);
  'since'?: (number);
  'limit'?: (number);
  'after'?: (string);
  '_metric'?: "metric";
  '_since'?: "since";
  '_limit'?: "limit";
  '_after'?: "after";
}
