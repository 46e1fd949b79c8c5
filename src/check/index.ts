// The linearizability checker (DESIGN §6; spec §3.4.3): histories, models, the search.
// The history format and every model's op shapes: ./README.md.
export { HistoryError, pairHistory, parseHistory, readHistory, validateEvent } from './history.js';
export type { EventType, HistoryEvent, Op, Process } from './history.js';
export { checkHistory, checkOps, partition, DEFAULT_BUDGET_MS, DEFAULT_MAX_STEPS } from './check.js';
export type { CheckOptions, CheckResult, OpView, Verdict, Violation } from './check.js';
export { createModel, MODELS, MODEL_NAMES } from './models/index.js';
export type { Model } from './model.js';
export { formatResult, formatOp } from './report.js';
