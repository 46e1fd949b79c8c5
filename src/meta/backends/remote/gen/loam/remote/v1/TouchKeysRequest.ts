// Original file: src/meta/backends/remote/loam_remote.proto

import type { KeyTouch as _loam_remote_v1_KeyTouch, KeyTouch__Output as _loam_remote_v1_KeyTouch__Output } from '../../../loam/remote/v1/KeyTouch.js';

export interface TouchKeysRequest {
  'touches'?: (_loam_remote_v1_KeyTouch)[];
  'requestId'?: (string);
}

export interface TouchKeysRequest__Output {
  'touches': (_loam_remote_v1_KeyTouch__Output)[];
  'requestId': (string);
}
