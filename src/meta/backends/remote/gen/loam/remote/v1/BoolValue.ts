// Original file: src/meta/backends/remote/loam_remote.proto


export interface BoolValue {
  'value'?: (boolean);
}

export interface BoolValue__Output {
  'value': (boolean);
}
