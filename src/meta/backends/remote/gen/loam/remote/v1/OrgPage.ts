// Original file: src/meta/backends/remote/loam_remote.proto

import type { Org as _loam_remote_v1_Org, Org__Output as _loam_remote_v1_Org__Output } from '../../../loam/remote/v1/Org.js';

export interface OrgPage {
  'items'?: (_loam_remote_v1_Org)[];
  'next'?: (string);
  '_next'?: "next";
}

export interface OrgPage__Output {
  'items': (_loam_remote_v1_Org__Output)[];
  'next'?: (string);
  '_next'?: "next";
}
