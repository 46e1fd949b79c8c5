// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface ErasureKey {
  'org'?: (string);
  'version'?: (number | string | Long);
  'wrapped'?: (string);
  'created'?: (number | string | Long);
  'destroyed'?: (number | string | Long);
  '_destroyed'?: "destroyed";
}

export interface ErasureKey__Output {
  'org': (string);
  'version': (number);
  'wrapped': (string);
  'created': (number);
  'destroyed'?: (number);
  '_destroyed'?: "destroyed";
}
