// Original file: src/meta/backends/remote/loam_remote.proto


export interface GetOrgRequest {
  'id'?: (string);
}

export interface GetOrgRequest__Output {
  'id': (string);
}
