// Original file: src/meta/backends/remote/loam_remote.proto


export interface ErasureKeysRequest {
  'org'?: (string);
}

export interface ErasureKeysRequest__Output {
  'org': (string);
}
