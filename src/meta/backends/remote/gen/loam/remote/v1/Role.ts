// Original file: src/meta/backends/remote/loam_remote.proto

export const Role = {
  ROLE_UNSPECIFIED: 'ROLE_UNSPECIFIED',
  ROLE_ORG_ADMIN: 'ROLE_ORG_ADMIN',
  ROLE_NAMESPACE_ADMIN: 'ROLE_NAMESPACE_ADMIN',
  ROLE_WRITER: 'ROLE_WRITER',
  ROLE_READER: 'ROLE_READER',
  ROLE_OPERATOR: 'ROLE_OPERATOR',
} as const;

export type Role =
  | 'ROLE_UNSPECIFIED'
  | 0
  | 'ROLE_ORG_ADMIN'
  | 1
  | 'ROLE_NAMESPACE_ADMIN'
  | 2
  | 'ROLE_WRITER'
  | 3
  | 'ROLE_READER'
  | 4
  | 'ROLE_OPERATOR'
  | 5

export type Role__Output = typeof Role[keyof typeof Role]
