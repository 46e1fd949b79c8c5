// Original file: src/meta/backends/remote/loam_remote.proto

export const Transactions = {
  TRANSACTIONS_UNSPECIFIED: 'TRANSACTIONS_UNSPECIFIED',
  TRANSACTIONS_MULTI_ITEM: 'TRANSACTIONS_MULTI_ITEM',
  TRANSACTIONS_SINGLE_ITEM: 'TRANSACTIONS_SINGLE_ITEM',
} as const;

export type Transactions =
  | 'TRANSACTIONS_UNSPECIFIED'
  | 0
  | 'TRANSACTIONS_MULTI_ITEM'
  | 1
  | 'TRANSACTIONS_SINGLE_ITEM'
  | 2

export type Transactions__Output = typeof Transactions[keyof typeof Transactions]
