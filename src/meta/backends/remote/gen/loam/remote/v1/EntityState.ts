// Original file: src/meta/backends/remote/loam_remote.proto

export const EntityState = {
  ENTITY_STATE_UNSPECIFIED: 'ENTITY_STATE_UNSPECIFIED',
  ENTITY_STATE_LIVE: 'ENTITY_STATE_LIVE',
  ENTITY_STATE_DROPPING: 'ENTITY_STATE_DROPPING',
} as const;

export type EntityState =
  | 'ENTITY_STATE_UNSPECIFIED'
  | 0
  | 'ENTITY_STATE_LIVE'
  | 1
  | 'ENTITY_STATE_DROPPING'
  | 2

export type EntityState__Output = typeof EntityState[keyof typeof EntityState]
