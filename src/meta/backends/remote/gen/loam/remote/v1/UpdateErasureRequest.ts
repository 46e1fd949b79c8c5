// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface UpdateErasureRequest {
  'id'?: (string);
  'expectedVersion'?: (number | string | Long);
  'phase'?: (string);
  'completed'?: (number | string | Long);
  'data'?: (string);
  'requestId'?: (string);
  '_completed'?: "completed";
}

export interface UpdateErasureRequest__Output {
  'id': (string);
  'expectedVersion': (number);
  'phase': (string);
  'completed'?: (number);
  'data': (string);
  'requestId': (string);
  '_completed'?: "completed";
}
