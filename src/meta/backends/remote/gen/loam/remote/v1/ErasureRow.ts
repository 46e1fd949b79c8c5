// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface ErasureRow {
  'id'?: (string);
  'org'?: (string);
  'ns'?: (number | string | Long);
  'collection'?: (number | string | Long);
  'phase'?: (string);
  'requested'?: (number | string | Long);
  'completed'?: (number | string | Long);
  'version'?: (number | string | Long);
  'data'?: (string);
  '_completed'?: "completed";
}

export interface ErasureRow__Output {
  'id': (string);
  'org': (string);
  'ns': (number);
  'collection': (number);
  'phase': (string);
  'requested': (number);
  'completed'?: (number);
  'version': (number);
  'data': (string);
  '_completed'?: "completed";
}
