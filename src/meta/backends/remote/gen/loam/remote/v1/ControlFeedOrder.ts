// Original file: src/meta/backends/remote/loam_remote.proto

export const ControlFeedOrder = {
  CONTROL_FEED_ORDER_UNSPECIFIED: 'CONTROL_FEED_ORDER_UNSPECIFIED',
  CONTROL_FEED_ORDER_ORDERED: 'CONTROL_FEED_ORDER_ORDERED',
  CONTROL_FEED_ORDER_GAPS: 'CONTROL_FEED_ORDER_GAPS',
} as const;

export type ControlFeedOrder =
  | 'CONTROL_FEED_ORDER_UNSPECIFIED'
  | 0
  | 'CONTROL_FEED_ORDER_ORDERED'
  | 1
  | 'CONTROL_FEED_ORDER_GAPS'
  | 2

export type ControlFeedOrder__Output = typeof ControlFeedOrder[keyof typeof ControlFeedOrder]
