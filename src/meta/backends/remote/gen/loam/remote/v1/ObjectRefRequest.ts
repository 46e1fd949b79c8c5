// Original file: src/meta/backends/remote/loam_remote.proto


export interface ObjectRefRequest {
  'path'?: (string);
}

export interface ObjectRefRequest__Output {
  'path': (string);
}
