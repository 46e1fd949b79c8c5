// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface AckOutboxRequest {
  'seqs'?: (number | string | Long)[];
  'requestId'?: (string);
}

export interface AckOutboxRequest__Output {
  'seqs': (number)[];
  'requestId': (string);
}
