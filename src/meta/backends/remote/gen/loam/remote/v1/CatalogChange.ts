// Original file: src/meta/backends/remote/loam_remote.proto

import type { ChangeKind as _loam_remote_v1_ChangeKind, ChangeKind__Output as _loam_remote_v1_ChangeKind__Output } from '../../../loam/remote/v1/ChangeKind.js';
import type { Long } from '@grpc/proto-loader';

export interface CatalogChange {
  'version'?: (number | string | Long);
  'ns'?: (number | string | Long);
  'kind'?: (_loam_remote_v1_ChangeKind);
  'id'?: (number | string | Long);
  'stamp'?: (number | string | Long);
  '_id'?: "id";
}

export interface CatalogChange__Output {
  'version': (number);
  'ns': (number);
  'kind': (_loam_remote_v1_ChangeKind__Output);
  'id'?: (number);
  'stamp': (number);
  '_id'?: "id";
}
