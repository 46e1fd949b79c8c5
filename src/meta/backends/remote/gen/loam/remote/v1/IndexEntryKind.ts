// Original file: src/meta/backends/remote/loam_remote.proto

export const IndexEntryKind = {
  INDEX_ENTRY_KIND_UNSPECIFIED: 'INDEX_ENTRY_KIND_UNSPECIFIED',
  INDEX_ENTRY_KIND_WAL: 'INDEX_ENTRY_KIND_WAL',
  INDEX_ENTRY_KIND_SEGMENT: 'INDEX_ENTRY_KIND_SEGMENT',
} as const;

export type IndexEntryKind =
  | 'INDEX_ENTRY_KIND_UNSPECIFIED'
  | 0
  | 'INDEX_ENTRY_KIND_WAL'
  | 1
  | 'INDEX_ENTRY_KIND_SEGMENT'
  | 2

export type IndexEntryKind__Output = typeof IndexEntryKind[keyof typeof IndexEntryKind]
