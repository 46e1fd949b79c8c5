// Original file: src/meta/backends/remote/loam_remote.proto

import type { QuotaName as _loam_remote_v1_QuotaName, QuotaName__Output as _loam_remote_v1_QuotaName__Output } from '../../../loam/remote/v1/QuotaName.js';
import type { Long } from '@grpc/proto-loader';

export interface SetQuotaRequest {
  'org'?: (string);
  'ns'?: (number | string | Long);
  'name'?: (_loam_remote_v1_QuotaName);
  'value'?: (number | string);
  'requestId'?: (string);
  '_ns'?: "ns";
  '_value'?: "value";
}

export interface SetQuotaRequest__Output {
  'org': (string);
  'ns'?: (number);
  'name': (_loam_remote_v1_QuotaName__Output);
  'value'?: (number);
  'requestId': (string);
  '_ns'?: "ns";
  '_value'?: "value";
}
