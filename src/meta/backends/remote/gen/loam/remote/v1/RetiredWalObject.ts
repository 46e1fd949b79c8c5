// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface RetiredWalObject {
  'path'?: (string);
  'retired'?: (number | string | Long);
}

export interface RetiredWalObject__Output {
  'path': (string);
  'retired': (number);
}
