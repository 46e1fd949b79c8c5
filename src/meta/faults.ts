// Deterministic, in-process fault injection (spec §4.2). Backends call the hook at fixed
// points of their one transaction helper; a test's FaultPlan decides what happens there.
//
//   BeforeBegin  — before the transaction starts: throwing here means "definitely not applied".
//                  A plan may also run a competing write here (Race) or sleep (Delay).
//   BeforeCommit — inside the transaction, after its statements: throwing rolls it back.
//                  Must not return a promise (the transaction is synchronous on SQLite).
//   AfterCommit  — the transaction committed: throwing here loses the acknowledgement.

export type FaultPoint = 'BeforeBegin' | 'BeforeCommit' | 'AfterCommit';

/** Called with the contract method name (e.g. 'casPointer') at each point of each attempt. */
export type FaultHook = (point: FaultPoint, op: string) => void | Promise<void>;
