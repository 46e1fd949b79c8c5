// Original file: src/meta/backends/remote/loam_remote.proto


export interface GetKeyRequest {
  'keyId'?: (string);
}

export interface GetKeyRequest__Output {
  'keyId': (string);
}
