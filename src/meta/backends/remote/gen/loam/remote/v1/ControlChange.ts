// Original file: src/meta/backends/remote/loam_remote.proto

import type { ControlChangeKind as _loam_remote_v1_ControlChangeKind, ControlChangeKind__Output as _loam_remote_v1_ControlChangeKind__Output } from '../../../loam/remote/v1/ControlChangeKind.js';
import type { Long } from '@grpc/proto-loader';

export interface ControlChange {
  'version'?: (number | string | Long);
  'kind'?: (_loam_remote_v1_ControlChangeKind);
  'org'?: (string);
  'id'?: (string);
  'at'?: (number | string | Long);
}

export interface ControlChange__Output {
  'version': (number);
  'kind': (_loam_remote_v1_ControlChangeKind__Output);
  'org': (string);
  'id': (string);
  'at': (number);
}
