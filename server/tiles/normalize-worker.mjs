// Runs resvg's parser and writer (Resvg#toString) off the main thread for normalize.ts.
// Plain JavaScript so that it starts the same under node, tsx and vitest.
import { parentPort } from 'node:worker_threads';
import { Resvg } from '@resvg/resvg-js';

parentPort.on('message', ({ id, doc, font }) => {
  try {
    parentPort.postMessage({ id, text: new Resvg(doc, { font, logLevel: 'off' }).toString() });
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
