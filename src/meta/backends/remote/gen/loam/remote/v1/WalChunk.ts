// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface WalChunk {
  'ns'?: (number | string | Long);
  'stream'?: (number | string | Long);
  'partition'?: (number);
  'records'?: (number | string | Long);
  'byteStart'?: (number | string | Long);
  'byteEnd'?: (number | string | Long);
}

export interface WalChunk__Output {
  'ns': (number);
  'stream': (number);
  'partition': (number);
  'records': (number);
  'byteStart': (number);
  'byteEnd': (number);
}
