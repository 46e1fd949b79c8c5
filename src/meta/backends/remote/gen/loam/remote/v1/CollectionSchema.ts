// Original file: src/meta/backends/remote/loam_remote.proto

import type { FieldType as _loam_remote_v1_FieldType, FieldType__Output as _loam_remote_v1_FieldType__Output } from '../../../loam/remote/v1/FieldType.js';

export interface CollectionSchema {
  'primaryKey'?: (string);
  'fields'?: ({[key: string]: _loam_remote_v1_FieldType});
}

export interface CollectionSchema__Output {
  'primaryKey': (string);
  'fields': ({[key: string]: _loam_remote_v1_FieldType__Output});
}
