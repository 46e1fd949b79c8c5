// Original file: src/meta/backends/remote/loam_remote.proto


export interface GetErasureRequest {
  'id'?: (string);
}

export interface GetErasureRequest__Output {
  'id': (string);
}
