// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface SaveJobPositionRequest {
  'job'?: (string);
  'position'?: (string);
  'at'?: (number | string | Long);
  'requestId'?: (string);
  '_position'?: "position";
  '_at'?: "at";
}

export interface SaveJobPositionRequest__Output {
  'job': (string);
  'position'?: (string);
  'at'?: (number);
  'requestId': (string);
  '_position'?: "position";
  '_at'?: "at";
}
