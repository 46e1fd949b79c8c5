// Deterministic, in-process fault injection (spec §4.2). Backends call the hook at fixed
// points of their one transaction helper; a test's FaultPlan decides what happens there.
//
//   BeforeBegin  — before the transaction starts: throwing here means "definitely not applied".
//                  A plan may also run a competing write here (Race) or sleep (Delay).
//   BeforeCommit — inside the transaction, after its statements: throwing rolls it back.
//                  Must not return a promise (the transaction is synchronous on SQLite).
//   AfterCommit  — the transaction committed: throwing here loses the acknowledgement.
//
// Points a backend may add, to inject a fault for real instead of by a thrown error (a backend
// that calls them says so to the fault matrix, test/faults/matrix.ts):
//   BeforeWrite  — inside the transaction, after its plain reads and before its first write or
//                  row lock: a plan may run a competing write here (Race between SELECT and UPDATE).
//   CommitSent   — COMMIT has been sent and its reply not yet read: throwing here makes the backend
//                  cut its connection, so the outcome is truly unknown to the client (Undetermined);
//                  the backend then resolves it (commit token, transaction status) or surfaces Unknown.

export type FaultPoint = 'BeforeBegin' | 'BeforeCommit' | 'AfterCommit' | 'BeforeWrite' | 'CommitSent';

/** Called with the contract method name (e.g. 'casPointer') at each point of each attempt. */
export type FaultHook = (point: FaultPoint, op: string) => void | Promise<void>;
