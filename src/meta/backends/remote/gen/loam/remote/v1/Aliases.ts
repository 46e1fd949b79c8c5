// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface Aliases {
  'ns'?: (number | string | Long);
  'version'?: (number | string | Long);
  'aliases'?: ({[key: string]: number | string | Long});
}

export interface Aliases__Output {
  'ns': (number);
  'version': (number);
  'aliases': ({[key: string]: number});
}
