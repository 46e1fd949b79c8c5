// Original file: src/meta/backends/remote/loam_remote.proto

import type { CatalogChange as _loam_remote_v1_CatalogChange, CatalogChange__Output as _loam_remote_v1_CatalogChange__Output } from '../../../loam/remote/v1/CatalogChange.js';
import type { Long } from '@grpc/proto-loader';

export interface ChangesPage {
  'changes'?: (_loam_remote_v1_CatalogChange)[];
  'version'?: (number | string | Long);
  'more'?: (boolean);
  'resync'?: (boolean);
}

export interface ChangesPage__Output {
  'changes': (_loam_remote_v1_CatalogChange__Output)[];
  'version': (number);
  'more': (boolean);
  'resync': (boolean);
}
