// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface Tag {
  'ns'?: (number | string | Long);
  'collection'?: (number | string | Long);
  'name'?: (string);
  'manifestVersion'?: (number | string | Long);
  'manifestPath'?: (string);
  'created'?: (number | string | Long);
  'rewrittenBy'?: (string);
  '_rewrittenBy'?: "rewrittenBy";
}

export interface Tag__Output {
  'ns': (number);
  'collection': (number);
  'name': (string);
  'manifestVersion': (number);
  'manifestPath': (string);
  'created': (number);
  'rewrittenBy'?: (string);
  '_rewrittenBy'?: "rewrittenBy";
}
