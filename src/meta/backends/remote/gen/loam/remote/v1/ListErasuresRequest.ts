// Original file: src/meta/backends/remote/loam_remote.proto


export interface ListErasuresRequest {
  'org'?: (string);
  'active'?: (boolean);
  'after'?: (string);
  'limit'?: (number);
  '_org'?: "org";
  '_after'?: "after";
  '_limit'?: "limit";
}

export interface ListErasuresRequest__Output {
  'org'?: (string);
  'active': (boolean);
  'after'?: (string);
  'limit'?: (number);
  '_org'?: "org";
  '_after'?: "after";
  '_limit'?: "limit";
}
