// Original file: src/meta/backends/remote/loam_remote.proto


export interface JobPositionValue {
  'position'?: (string);
  '_position'?: "position";
}

export interface JobPositionValue__Output {
  'position'?: (string);
  '_position'?: "position";
}
