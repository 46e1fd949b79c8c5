// Boots the worker thread: registers the TypeScript loader (tsx) in this thread, then runs
// ./worker-thread-main.ts. Plain JavaScript, so it loads whatever loader the main thread used.
import { register } from 'tsx/esm/api';

register();
await import('./worker-thread-main.ts');
