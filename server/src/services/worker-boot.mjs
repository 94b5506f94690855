// Starts a worker thread on a TypeScript module (services/worker-pool.ts): the server runs under tsx, whose
// loader a worker thread does not inherit, so the worker registers it before importing its entry.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
