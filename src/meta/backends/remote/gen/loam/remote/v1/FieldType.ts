// Original file: src/meta/backends/remote/loam_remote.proto

export const FieldType = {
  FIELD_TYPE_UNSPECIFIED: 'FIELD_TYPE_UNSPECIFIED',
  FIELD_TYPE_STRING: 'FIELD_TYPE_STRING',
  FIELD_TYPE_NUMBER: 'FIELD_TYPE_NUMBER',
  FIELD_TYPE_BOOLEAN: 'FIELD_TYPE_BOOLEAN',
  FIELD_TYPE_JSON: 'FIELD_TYPE_JSON',
} as const;

export type FieldType =
  | 'FIELD_TYPE_UNSPECIFIED'
  | 0
  | 'FIELD_TYPE_STRING'
  | 1
  | 'FIELD_TYPE_NUMBER'
  | 2
  | 'FIELD_TYPE_BOOLEAN'
  | 3
  | 'FIELD_TYPE_JSON'
  | 4

export type FieldType__Output = typeof FieldType[keyof typeof FieldType]
