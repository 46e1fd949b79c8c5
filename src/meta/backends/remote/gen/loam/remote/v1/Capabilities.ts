// Original file: src/meta/backends/remote/loam_remote.proto

import type { Transactions as _loam_remote_v1_Transactions, Transactions__Output as _loam_remote_v1_Transactions__Output } from '../../../loam/remote/v1/Transactions.js';
import type { ChangeFeed as _loam_remote_v1_ChangeFeed, ChangeFeed__Output as _loam_remote_v1_ChangeFeed__Output } from '../../../loam/remote/v1/ChangeFeed.js';

export interface Capabilities {
  'transactions'?: (_loam_remote_v1_Transactions);
  'snapshotReads'?: (boolean);
  'maxChunksPerGroup'?: (number | string);
  'maxSwapEntries'?: (number | string);
  'changeFeed'?: (_loam_remote_v1_ChangeFeed);
  'dirtySets'?: (boolean);
}

export interface Capabilities__Output {
  'transactions': (_loam_remote_v1_Transactions__Output);
  'snapshotReads': (boolean);
  'maxChunksPerGroup': (number);
  'maxSwapEntries': (number);
  'changeFeed': (_loam_remote_v1_ChangeFeed__Output);
  'dirtySets': (boolean);
}
