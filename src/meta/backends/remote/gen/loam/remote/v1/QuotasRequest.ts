// Original file: src/meta/backends/remote/loam_remote.proto


export interface QuotasRequest {
  'org'?: (string);
}

export interface QuotasRequest__Output {
  'org': (string);
}
