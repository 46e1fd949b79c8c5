// Original file: src/meta/backends/remote/loam_remote.proto


export interface BindingsRequest {
  'org'?: (string);
  'subject'?: (string);
}

export interface BindingsRequest__Output {
  'org': (string);
  'subject': (string);
}
