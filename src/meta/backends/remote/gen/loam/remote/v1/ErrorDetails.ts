// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface ErrorDetails {
  'existingId'?: (number | string | Long);
  'currentVersion'?: (number | string | Long);
  'currentVersionNull'?: (boolean);
  'currentEpoch'?: (number | string | Long);
  'holder'?: (string);
  'holderNull'?: (boolean);
  'deadline'?: (number | string | Long);
  'field'?: (string);
  'limit'?: (string);
  'max'?: (number | string);
  'path'?: (string);
  'earlierUnknown'?: (boolean);
  'beforeSend'?: (boolean);
  'reason'?: (string);
  '_existingId'?: "existingId";
  '_currentVersion'?: "currentVersion";
  '_currentEpoch'?: "currentEpoch";
  '_holder'?: "holder";
  '_deadline'?: "deadline";
  '_field'?: "field";
  '_limit'?: "limit";
  '_max'?: "max";
  '_path'?: "path";
  '_earlierUnknown'?: "earlierUnknown";
  '_beforeSend'?: "beforeSend";
  '_reason'?: "reason";
}

export interface ErrorDetails__Output {
  'existingId'?: (number);
  'currentVersion'?: (number);
  'currentVersionNull': (boolean);
  'currentEpoch'?: (number);
  'holder'?: (string);
  'holderNull': (boolean);
  'deadline'?: (number);
  'field'?: (string);
  'limit'?: (string);
  'max'?: (number);
  'path'?: (string);
  'earlierUnknown'?: (boolean);
  'beforeSend'?: (boolean);
  'reason'?: (string);
  '_existingId'?: "existingId";
  '_currentVersion'?: "currentVersion";
  '_currentEpoch'?: "currentEpoch";
  '_holder'?: "holder";
  '_deadline'?: "deadline";
  '_field'?: "field";
  '_limit'?: "limit";
  '_max'?: "max";
  '_path'?: "path";
  '_earlierUnknown'?: "earlierUnknown";
  '_beforeSend'?: "beforeSend";
  '_reason'?: "reason";
}
