// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface OutboxEntry {
  'seq'?: (number | string | Long);
  'org'?: (string);
  'subject'?: (string);
  'relation'?: (string);
  'target'?: (string);
  'at'?: (number | string | Long);
}

export interface OutboxEntry__Output {
  'seq': (number);
  'org': (string);
  'subject': (string);
  'relation': (string);
  'target': (string);
  'at': (number);
}
