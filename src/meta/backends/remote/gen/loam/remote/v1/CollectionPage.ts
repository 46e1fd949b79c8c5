// Original file: src/meta/backends/remote/loam_remote.proto

import type { Collection as _loam_remote_v1_Collection, Collection__Output as _loam_remote_v1_Collection__Output } from '../../../loam/remote/v1/Collection.js';

export interface CollectionPage {
  'items'?: (_loam_remote_v1_Collection)[];
  'next'?: (string);
  '_next'?: "next";
}

export interface CollectionPage__Output {
  'items': (_loam_remote_v1_Collection__Output)[];
  'next'?: (string);
  '_next'?: "next";
}
