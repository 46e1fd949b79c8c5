// Original file: src/meta/backends/remote/loam_remote.proto

import type { ObjectRef as _loam_remote_v1_ObjectRef, ObjectRef__Output as _loam_remote_v1_ObjectRef__Output } from '../../../loam/remote/v1/ObjectRef.js';

export interface OptionalObjectRef {
  'objectRef'?: (_loam_remote_v1_ObjectRef | null);
  '_objectRef'?: "objectRef";
}

export interface OptionalObjectRef__Output {
  'objectRef'?: (_loam_remote_v1_ObjectRef__Output | null);
  '_objectRef'?: "objectRef";
}
