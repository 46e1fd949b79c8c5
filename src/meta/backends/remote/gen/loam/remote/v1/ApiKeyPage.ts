// Original file: src/meta/backends/remote/loam_remote.proto

import type { ApiKeyInfo as _loam_remote_v1_ApiKeyInfo, ApiKeyInfo__Output as _loam_remote_v1_ApiKeyInfo__Output } from '../../../loam/remote/v1/ApiKeyInfo.js';

export interface ApiKeyPage {
  'items'?: (_loam_remote_v1_ApiKeyInfo)[];
  'next'?: (string);
  '_next'?: "next";
}

export interface ApiKeyPage__Output {
  'items': (_loam_remote_v1_ApiKeyInfo__Output)[];
  'next'?: (string);
  '_next'?: "next";
}
