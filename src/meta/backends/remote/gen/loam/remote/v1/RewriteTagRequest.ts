// Original file: src/meta/backends/remote/loam_remote.proto

import type { WriteContext as _loam_remote_v1_WriteContext, WriteContext__Output as _loam_remote_v1_WriteContext__Output } from '../../../loam/remote/v1/WriteContext.js';
import type { Long } from '@grpc/proto-loader';

export interface RewriteTagRequest {
  'ns'?: (number | string | Long);
  'collection'?: (number | string | Long);
  'name'?: (string);
  'fromPath'?: (string);
  'toPath'?: (string);
  'rewrittenBy'?: (string);
  'w'?: (_loam_remote_v1_WriteContext | null);
}

export interface RewriteTagRequest__Output {
  'ns': (number);
  'collection': (number);
  'name': (string);
  'fromPath': (string);
  'toPath': (string);
  'rewrittenBy': (string);
  'w': (_loam_remote_v1_WriteContext__Output | null);
}
