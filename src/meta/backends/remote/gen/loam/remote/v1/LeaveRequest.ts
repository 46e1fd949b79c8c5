// Original file: src/meta/backends/remote/loam_remote.proto


export interface LeaveRequest {
  'node'?: (string);
  'requestId'?: (string);
}

export interface LeaveRequest__Output {
  'node': (string);
  'requestId': (string);
}
