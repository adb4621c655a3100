/**
 * Marker lists built on a worker thread (list-worker.ts) with its own database connection:
 * the full list of a 10,000-marker map is 4.6 MB of JSON, and building and hashing it held the
 * event loop for about 70 ms after every burst of writes (a second at 100,000 markers), so a
 * write that came in meanwhile waited (the editor benchmark's add and update p95).
 *
 *   server thread: invalidate → JsonCache rebuild → postMessage({ id, kind, map, lang })
 *   worker thread: SELECT … (committed rows) → JSON → UTF-8 bytes → sha256 → postMessage(bytes: transferred)
 *
 * The worker starts on the first build and stays (unref'd: it keeps nothing alive). If it dies
 * (a crash, an exit), the builds it held are made again on the fallback source (the server's
 * own thread), so no reader sees the crash; the next build starts a new worker. After
 * `maxCrashes` deaths in a row without one answer, it is not started again: every build runs
 * on the fallback, and `onError` hears why once.
 *
 * A build that fails in the worker (a database error) rejects that build only, as it would
 * inline.
 */
import { Worker } from 'node:worker_threads';
import type { Language } from '../../src/domain/marker';
import type { OpenDatabaseOptions } from '../db/database';
import { type CompactFormat, type ListKind, type MarkerListSource, compactKind } from './list-source';
import type { PreparedBody } from './prepared-body';
import type { ListJob, ListReply } from './worker-protocol';

const WORKER_ENTRY = new URL('./list-worker.mjs', import.meta.url);

export interface WorkerListSourceOptions {
  /** How the worker opens the database: the server's own settings (a file or a PostgreSQL URL, never ':memory:'). */
  database: OpenDatabaseOptions;
  /** Builds on this thread when the worker is down. */
  fallback: MarkerListSource;
  /** Hears a worker's death, and giving up on the worker. */
  onError?: (error: Error) => void;
  /** Deaths in a row before the worker is given up (default 3). */
  maxCrashes?: number;
}

interface Pending {
  job: ListJob;
  resolve: (body: PreparedBody) => void;
  reject: (error: unknown) => void;
}

/** Whether another thread can open this database too (a file or a server; not ':memory:'). */
export function sharesDatabase(database: OpenDatabaseOptions): boolean {
  return database.databaseUrl !== undefined || (!!database.sqliteFile && database.sqliteFile !== ':memory:');
}

export class WorkerListSource implements MarkerListSource {
  private worker?: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private crashesInARow = 0;
  private gaveUp = false;
  private closed = false;
  /** Workers started so far (tests, logs). */
  started = 0;

  constructor(private readonly options: WorkerListSourceOptions) {
    if (!sharesDatabase(options.database)) {
      throw new Error('a list worker needs a database file or URL it can open too (not :memory:)');
    }
  }

  full(map: string): Promise<PreparedBody> {
    return this.build('full', map, 'en');
  }

  compact(map: string, lang: Language, format: CompactFormat): Promise<PreparedBody> {
    return this.build(compactKind(format), map, lang);
  }

  /** Whether builds go to the worker (false once it was given up). */
  get usingWorker(): boolean {
    return !this.gaveUp;
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.reject(new Error('the marker list source was closed'));
    if (worker) await worker.terminate();
  }

  private build(kind: ListKind, map: string, lang: Language): Promise<PreparedBody> {
    if (this.closed) return Promise.reject(new Error('the marker list source was closed'));
    if (this.gaveUp) return this.onFallback(kind, map, lang);
    const job: ListJob = { id: ++this.nextId, kind, map, lang };
    return new Promise<PreparedBody>((resolve, reject) => {
      this.pending.set(job.id, { job, resolve, reject });
      this.ensureWorker().postMessage(job);
    });
  }

  private onFallback(kind: ListKind, map: string, lang: Language): Promise<PreparedBody> {
    return kind === 'full' ? this.options.fallback.full(map) : this.options.fallback.compact(map, lang, kind === 'compact-binary' ? 'binary' : 'json');
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_ENTRY, { workerData: { database: this.options.database } });
    this.started += 1;
    worker.unref();
    worker.on('message', (reply: ListReply) => this.answer(reply));
    worker.on('error', (error) => this.lost(worker, error));
    worker.on('exit', (code) => this.lost(worker, new Error(`the marker list worker exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  private answer(reply: ListReply): void {
    const p = this.pending.get(reply.id);
    if (!p) return;
    this.pending.delete(reply.id);
    this.crashesInARow = 0;
    if ('error' in reply) {
      // With its code, so a database that does not answer is a 503 here too (server/db/failure.ts).
      p.reject(Object.assign(new Error(reply.error), reply.code ? { code: reply.code } : {}));
      return;
    }
    p.resolve({ identity: Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength), hash: reply.hash });
  }

  /** The worker died: its builds run again on the fallback; the next build starts another. */
  private lost(worker: Worker, error: Error): void {
    if (this.worker !== worker || this.closed) return;
    this.worker = undefined;
    this.crashesInARow += 1;
    const max = this.options.maxCrashes ?? 3;
    if (this.crashesInARow >= max) {
      this.gaveUp = true;
      this.options.onError?.(new Error(`the marker list worker died ${max} times in a row; building lists on the server's thread from now on (last: ${error.message})`, { cause: error }));
    } else {
      this.options.onError?.(error);
    }
    const orphans = [...this.pending.values()];
    this.pending.clear();
    for (const { job, resolve, reject } of orphans) this.onFallback(job.kind, job.map, job.lang).then(resolve, reject);
  }
}
