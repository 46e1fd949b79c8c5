// Original file: src/meta/backends/remote/loam_remote.proto

import type { ErrorCode as _loam_remote_v1_ErrorCode, ErrorCode__Output as _loam_remote_v1_ErrorCode__Output } from '../../../loam/remote/v1/ErrorCode.js';
import type { ErrorDetails as _loam_remote_v1_ErrorDetails, ErrorDetails__Output as _loam_remote_v1_ErrorDetails__Output } from '../../../loam/remote/v1/ErrorDetails.js';

export interface ErrorDetail {
  'code'?: (_loam_remote_v1_ErrorCode);
  'message'?: (string);
  'details'?: (_loam_remote_v1_ErrorDetails | null);
}

export interface ErrorDetail__Output {
  'code': (_loam_remote_v1_ErrorCode__Output);
  'message': (string);
  'details': (_loam_remote_v1_ErrorDetails__Output | null);
}
