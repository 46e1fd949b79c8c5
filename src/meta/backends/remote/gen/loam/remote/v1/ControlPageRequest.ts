// Original file: src/meta/backends/remote/loam_remote.proto


export interface ControlPageRequest {
  'after'?: (string);
  'limit'?: (number);
  '_after'?: "after";
  '_limit'?: "limit";
}

export interface ControlPageRequest__Output {
  'after'?: (string);
  'limit'?: (number);
  '_after'?: "after";
  '_limit'?: "limit";
}
