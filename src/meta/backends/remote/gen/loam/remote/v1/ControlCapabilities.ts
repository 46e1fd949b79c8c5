// Original file: src/meta/backends/remote/loam_remote.proto

import type { Transactions as _loam_remote_v1_Transactions, Transactions__Output as _loam_remote_v1_Transactions__Output } from '../../../loam/remote/v1/Transactions.js';
import type { ControlFeedOrder as _loam_remote_v1_ControlFeedOrder, ControlFeedOrder__Output as _loam_remote_v1_ControlFeedOrder__Output } from '../../../loam/remote/v1/ControlFeedOrder.js';

export interface ControlCapabilities {
  'transactions'?: (_loam_remote_v1_Transactions);
  'feedOrder'?: (_loam_remote_v1_ControlFeedOrder);
}

export interface ControlCapabilities__Output {
  'transactions': (_loam_remote_v1_Transactions__Output);
  'feedOrder': (_loam_remote_v1_ControlFeedOrder__Output);
}
