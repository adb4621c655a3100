/**
 * The list worker's thread (started by worker-list-source.ts): its own database connection,
 * one list built per message, answered as bytes (UTF-8 for the JSON lists) (transferred, not copied) and their
 * hash. A build that fails answers its error; the thread goes on.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase, type OpenDatabaseOptions } from '../db/database';
import { MarkerRepository } from '../db/markers';
import { buildList } from './list-source';
import { hashBody } from './prepared-body';
import type { ListJob, ListReply } from './worker-protocol';

if (!parentPort) throw new Error('list-worker.ts runs as a worker thread (worker-list-source.ts)');
const port = parentPort;
const db = openDatabase((workerData as { database: OpenDatabaseOptions }).database);
const markers = new MarkerRepository(db);

port.on('message', (job: ListJob) => {
  void (async () => {
    let reply: ListReply;
    const transfer: ArrayBuffer[] = [];
    try {
      const body = await buildList(markers, job.kind, job.map, job.lang);
      const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
      reply = { id: job.id, bytes, hash: hashBody(bytes) };
      transfer.push(bytes.buffer as ArrayBuffer);
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      reply = { id: job.id, error: error instanceof Error ? error.message : String(error), ...(typeof code === 'string' ? { code } : {}) };
    }
    port.postMessage(reply, transfer);
  })();
});
