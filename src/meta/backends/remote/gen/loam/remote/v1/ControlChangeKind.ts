// Original file: src/meta/backends/remote/loam_remote.proto

export const ControlChangeKind = {
  CONTROL_CHANGE_KIND_UNSPECIFIED: 'CONTROL_CHANGE_KIND_UNSPECIFIED',
  CONTROL_CHANGE_KIND_ORG: 'CONTROL_CHANGE_KIND_ORG',
  CONTROL_CHANGE_KIND_KEY: 'CONTROL_CHANGE_KIND_KEY',
  CONTROL_CHANGE_KIND_BINDING: 'CONTROL_CHANGE_KIND_BINDING',
  CONTROL_CHANGE_KIND_QUOTA: 'CONTROL_CHANGE_KIND_QUOTA',
} as const;

export type ControlChangeKind =
  | 'CONTROL_CHANGE_KIND_UNSPECIFIED'
  | 0
  | 'CONTROL_CHANGE_KIND_ORG'
  | 1
  | 'CONTROL_CHANGE_KIND_KEY'
  | 2
  | 'CONTROL_CHANGE_KIND_BINDING'
  | 3
  | 'CONTROL_CHANGE_KIND_QUOTA'
  | 4

export type ControlChangeKind__Output = typeof ControlChangeKind[keyof typeof ControlChangeKind]
