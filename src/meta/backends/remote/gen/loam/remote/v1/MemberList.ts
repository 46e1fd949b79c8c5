// Original file: src/meta/backends/remote/loam_remote.proto

import type { Member as _loam_remote_v1_Member, Member__Output as _loam_remote_v1_Member__Output } from '../../../loam/remote/v1/Member.js';

export interface MemberList {
  'items'?: (_loam_remote_v1_Member)[];
}

export interface MemberList__Output {
  'items': (_loam_remote_v1_Member__Output)[];
}
