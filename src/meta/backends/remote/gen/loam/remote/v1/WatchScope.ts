// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface WatchScope {
  'ns'?: (number | string | Long);
  'catalog'?: (boolean);
  'scope'?: "ns"|"catalog";
}

export interface WatchScope__Output {
  'ns'?: (number);
  'catalog'?: (boolean);
  'scope'?: "ns"|"catalog";
}
