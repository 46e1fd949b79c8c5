// Original file: src/meta/backends/remote/loam_remote.proto


export interface Empty {
}

export interface Empty__Output {
}
