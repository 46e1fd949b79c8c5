// Original file: src/meta/backends/remote/loam_remote.proto

import type { CatalogChange as _loam_remote_v1_CatalogChange, CatalogChange__Output as _loam_remote_v1_CatalogChange__Output } from '../../../loam/remote/v1/CatalogChange.js';
import type { Long } from '@grpc/proto-loader';

export interface ChangeEvent {
  'version'?: (number | string | Long);
  'changes'?: (_loam_remote_v1_CatalogChange)[];
  'resync'?: (boolean);
}

export interface ChangeEvent__Output {
  'version': (number);
  'changes': (_loam_remote_v1_CatalogChange__Output)[];
  'resync': (boolean);
}
