// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface KeyTouch {
  'keyId'?: (string);
  'at'?: (number | string | Long);
}

export interface KeyTouch__Output {
  'keyId': (string);
  'at': (number);
}
