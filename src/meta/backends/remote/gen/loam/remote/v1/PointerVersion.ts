// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface PointerVersion {
  'version'?: (number | string | Long);
  'value'?: (string);
  'superseded'?: (number | string | Long);
  '_superseded'?: "superseded";
}

export interface PointerVersion__Output {
  'version': (number);
  'value': (string);
  'superseded'?: (number);
  '_superseded'?: "superseded";
}
