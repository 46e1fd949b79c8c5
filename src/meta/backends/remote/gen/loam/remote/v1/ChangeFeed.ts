// Original file: src/meta/backends/remote/loam_remote.proto

export const ChangeFeed = {
  CHANGE_FEED_UNSPECIFIED: 'CHANGE_FEED_UNSPECIFIED',
  CHANGE_FEED_PUSH: 'CHANGE_FEED_PUSH',
  CHANGE_FEED_POLL: 'CHANGE_FEED_POLL',
} as const;

export type ChangeFeed =
  | 'CHANGE_FEED_UNSPECIFIED'
  | 0
  | 'CHANGE_FEED_PUSH'
  | 1
  | 'CHANGE_FEED_POLL'
  | 2

export type ChangeFeed__Output = typeof ChangeFeed[keyof typeof ChangeFeed]
