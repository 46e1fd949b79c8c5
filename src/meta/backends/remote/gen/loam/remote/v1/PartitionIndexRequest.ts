// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface PartitionIndexRequest {
  'ns'?: (number | string | Long);
  'stream'?: (number | string | Long);
  'partition'?: (number);
  'from'?: (number | string | Long);
  'limit'?: (number);
  '_from'?: "from";
  '_limit'?: "limit";
}

export interface PartitionIndexRequest__Output {
  'ns': (number);
  'stream': (number);
  'partition': (number);
  'from'?: (number);
  'limit'?: (number);
  '_from'?: "from";
  '_limit'?: "limit";
}
