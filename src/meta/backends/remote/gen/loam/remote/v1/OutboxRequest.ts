// Original file: src/meta/backends/remote/loam_remote.proto


export interface OutboxRequest {
  'limit'?: (number);
  '_limit'?: "limit";
}

export interface OutboxRequest__Output {
  'limit'?: (number);
  '_limit'?: "limit";
}
