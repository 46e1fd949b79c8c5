// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface VersionValue {
  'version'?: (number | string | Long);
}

export interface VersionValue__Output {
  'version': (number);
}
