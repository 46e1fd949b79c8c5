// Original file: src/meta/backends/remote/loam_remote.proto


export interface ReadOptions {
  'includeDropping'?: (boolean);
}

export interface ReadOptions__Output {
  'includeDropping': (boolean);
}
