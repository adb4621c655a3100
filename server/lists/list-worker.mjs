// The list worker's entry: the worker thread gets TypeScript through tsx's loader (as the
// server does), then runs list-worker.ts. See worker-list-source.ts.
import { register } from 'tsx/esm/api';

register();
await import('./list-worker.ts');
