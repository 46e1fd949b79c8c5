// Original file: src/meta/backends/remote/loam_remote.proto


export interface PageRequest {
  'prefix'?: (string);
  'after'?: (string);
  'limit'?: (number);
  '_prefix'?: "prefix";
  '_after'?: "after";
  '_limit'?: "limit";
}

export interface PageRequest__Output {
  'prefix'?: (string);
  'after'?: (string);
  'limit'?: (number);
  '_prefix'?: "prefix";
  '_after'?: "after";
  '_limit'?: "limit";
}
