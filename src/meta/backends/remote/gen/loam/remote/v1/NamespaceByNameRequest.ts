// Original file: src/meta/backends/remote/loam_remote.proto


export interface NamespaceByNameRequest {
  'org'?: (string);
  'name'?: (string);
}

export interface NamespaceByNameRequest__Output {
  'org': (string);
  'name': (string);
}
