// Worker threads do not inherit the parent's --import hooks: register tsx, then load the TS entry.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';
register();
await import(workerData.entry);
