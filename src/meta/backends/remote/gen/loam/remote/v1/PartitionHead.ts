// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface PartitionHead {
  'partition'?: (number);
  'next'?: (number | string | Long);
  'logStart'?: (number | string | Long);
  'bytes'?: (number | string | Long);
}

export interface PartitionHead__Output {
  'partition': (number);
  'next': (number);
  'logStart': (number);
  'bytes': (number);
}
