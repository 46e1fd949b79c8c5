// Original file: src/meta/backends/remote/loam_remote.proto


export interface JobPositionRequest {
  'job'?: (string);
}

export interface JobPositionRequest__Output {
  'job': (string);
}
