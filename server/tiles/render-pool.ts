/**
 * resvg in a small pool of child processes (render-child.mjs). resvg 2.6 can panic in Rust
 * on some documents (`geom.rs: called Option::unwrap() on a None value`) and a panic aborts
 * the whole process, past any try/catch. In a child, a panic costs only that render: its job
 * rejects ("resvg crashed while rendering …"), the child is replaced, and the jobs queued
 * behind it go to the next free (or a fresh) child. A render that takes longer than the
 * timeout kills its child the same way.
 *
 * The same children also normalise layers for normalize.ts (`normalize`: resvg's parser and
 * writer, `Resvg#toString`), which can panic just the same: a crash there rejects that
 * layer's preparation ("resvg crashed while preparing layer … of map …") and nothing else.
 *
 * Children start on the first job and each takes one job at a time; idle, they keep
 * neither the server nor a test run alive, and they exit on their own when the parent goes
 * away (their IPC channel closes). Pixels travel with advanced serialization (no JSON).
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { ResvgRenderOptions } from '@resvg/resvg-js';

/** RGBA pixels, premultiplied by alpha (as resvg leaves them). */
export interface RenderedPixels {
  width: number;
  height: number;
  pixels: Buffer;
}

export interface RenderPoolOptions {
  /** Child processes at most (default: env TILE_RENDER_PROCESSES, else min(2, CPUs)). */
  size?: number;
  /** A render taking longer than this kills its child (default 60 s). */
  timeoutMs?: number;
  /** A normalisation taking longer than this kills its child (default 5 min: a whole layer). */
  normalizeTimeoutMs?: number;
}

export const DEFAULT_RENDER_TIMEOUT_MS = 60_000;
export const DEFAULT_NORMALIZE_TIMEOUT_MS = 300_000;

const CLOSED = 'the render pool was closed';

const CHILD_SCRIPT = fileURLToPath(new URL('./render-child.mjs', import.meta.url));

/** What a child is asked to do: rasterise a document, or write resvg's normalised text of one. */
type JobWork =
  | { kind: 'render'; svg: string; options: ResvgRenderOptions }
  | { kind: 'normalize'; doc: string; font: NonNullable<ResvgRenderOptions['font']> };

interface Job {
  id: number;
  work: JobWork;
  label: string;
  timeoutMs: number;
  resolve: (value: RenderedPixels | string) => void;
  reject: (err: Error) => void;
}

/** How errors name a job's work: "resvg crashed while rendering …" / "… while preparing …". */
const VERB = { render: 'rendering', normalize: 'preparing' } as const;

interface Slot {
  child: ChildProcess;
  job?: Job;
  timer?: NodeJS.Timeout;
  /** Why the child is being killed (timeout, dispose), for the job's error. */
  killedFor?: string;
  /** The end of the child's stderr, for resvg's panic message. */
  stderr: string;
  gone: boolean;
}

interface ChildReply {
  id: number;
  width?: number;
  height?: number;
  pixels?: Uint8Array;
  /** resvg's normalised SVG (normalize jobs). */
  text?: string;
  error?: string;
}

export function defaultPoolSize(env: NodeJS.ProcessEnv = process.env): number {
  const fromEnv = Number.parseInt(env.TILE_RENDER_PROCESSES ?? '', 10);
  if (Number.isFinite(fromEnv) && fromEnv >= 1) return fromEnv;
  return Math.max(1, Math.min(2, os.availableParallelism()));
}

/** Every live child of every pool, killed when this process exits however it exits. */
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of liveChildren) child.kill('SIGKILL');
  });
}

/** "thread … panicked at …/geom.rs:27:61:\ncalled `Option::unwrap()` on a `None` value" → one line. */
function panicOf(stderr: string): string | undefined {
  const m = /panicked at ([^\n]*?):?\n([^\n]+)/.exec(stderr);
  if (!m) return undefined;
  const where = m[1].split('/').slice(-3).join('/');
  return `${m[2].trim()} (${where})`;
}

export class RenderPool {
  readonly size: number;
  readonly timeoutMs: number;
  readonly normalizeTimeoutMs: number;
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 0;
  /** Children started so far, restarts included (tests, logs). */
  started = 0;
  /** Children lost to a crash or a timeout (tests, logs). */
  crashes = 0;

  constructor(opts: RenderPoolOptions = {}) {
    this.size = Math.max(1, Math.floor(opts.size ?? defaultPoolSize()));
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS;
    this.normalizeTimeoutMs = opts.normalizeTimeoutMs ?? DEFAULT_NORMALIZE_TIMEOUT_MS;
  }

  /** Rasterises an SVG document in a child; `label` names it in errors. */
  render(svg: string, options: ResvgRenderOptions, label = 'an SVG document'): Promise<RenderedPixels> {
    return this.enqueue({ kind: 'render', svg, options }, label, this.timeoutMs) as Promise<RenderedPixels>;
  }

  /**
   * resvg's normalised text of an SVG document (`Resvg#toString`), made in a child; `label`
   * names it in errors ("resvg crashed while preparing <label> …").
   */
  normalize(doc: string, font: NonNullable<ResvgRenderOptions['font']>, label = 'an SVG document'): Promise<string> {
    return this.enqueue({ kind: 'normalize', doc, font }, label, this.normalizeTimeoutMs) as Promise<string>;
  }

  private enqueue(work: JobWork, label: string, timeoutMs: number): Promise<RenderedPixels | string> {
    return new Promise<RenderedPixels | string>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, work, label, timeoutMs, resolve, reject });
      this.dispatch();
    });
  }

  /** Children, busy children and jobs waiting for one (tests, logs). */
  stats(): { children: number; busy: number; queued: number } {
    let busy = 0;
    for (const s of this.slots) if (s.job) busy++;
    return { children: this.slots.size, busy, queued: this.queue.length };
  }

  /** Process ids of the live children; `busy` only those working (tests). */
  pids(which: 'all' | 'busy' = 'all'): number[] {
    return [...this.slots].filter((s) => which === 'all' || s.job).map((s) => s.child.pid).filter((p): p is number => p !== undefined);
  }

  /**
   * Kills the children and rejects every job not finished; resolves once they are gone.
   * The pool stays usable: the next render starts new children.
   */
  async dispose(): Promise<void> {
    const err = new Error(CLOSED);
    for (const job of this.queue.splice(0)) job.reject(err);
    // Jobs in a child are rejected now, not when the child is gone: a reply already on its way
    // (a small document, done before the kill) would otherwise resolve a job of a closed pool.
    for (const slot of this.slots) {
      const job = slot.job;
      if (!job) continue;
      slot.job = undefined;
      clearTimeout(slot.timer);
      slot.timer = undefined;
      job.reject(err);
    }
    const closing = [...this.slots].map(
      (slot) =>
        new Promise<void>((resolve) => {
          if (slot.gone) return resolve();
          slot.child.once('close', () => resolve());
          slot.killedFor = CLOSED;
          this.setIdle(slot, false);
          slot.child.kill('SIGKILL');
        }),
    );
    await Promise.all(closing);
  }

  private dispatch(): void {
    while (this.queue.length) {
      let slot: Slot | undefined;
      for (const s of this.slots) {
        if (!s.job && !s.gone && !s.killedFor) {
          slot = s;
          break;
        }
      }
      if (!slot) {
        if (this.slots.size >= this.size) return;
        try {
          slot = this.spawn();
        } catch (err) {
          const job = this.queue.shift()!;
          job.reject(new Error(`could not start a render process for ${VERB[job.work.kind]} ${job.label}: ${(err as Error).message}`));
          continue;
        }
      }
      this.assign(slot, this.queue.shift()!);
    }
  }

  private spawn(): Slot {
    const child = fork(CHILD_SCRIPT, [], {
      serialization: 'advanced',
      // Plain JavaScript: no tsx or vitest loader (they would only slow the start).
      execArgv: [],
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    });
    this.started++;
    const slot: Slot = { child, stderr: '', gone: false };
    this.slots.add(slot);
    liveChildren.add(child);
    installExitHook();
    child.stderr?.on('data', (chunk: Buffer) => {
      // Still the server's stderr (resvg's panic belongs in its log), and kept for the error.
      process.stderr.write(chunk);
      slot.stderr = (slot.stderr + chunk.toString()).slice(-4000);
    });
    child.on('message', (msg: ChildReply) => this.onReply(slot, msg));
    // 'close' comes after 'exit' and after stderr is drained (the panic message is in).
    child.on('close', (code, signal) => this.onGone(slot, signal ? `signal ${signal}` : `exit code ${code}`));
    child.on('error', (err) => {
      // Failed to start, or to be signalled: either way, it is no longer of use.
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) this.onGone(slot, err.message);
      else {
        slot.killedFor ??= `render process error: ${err.message}`;
        child.kill('SIGKILL');
      }
    });
    this.setIdle(slot, true);
    return slot;
  }

  /**
   * An idle child keeps no one alive; a busy one (or one being stopped) keeps the parent
   * waiting for its answer, or for its end.
   */
  private setIdle(slot: Slot, idle: boolean): void {
    const { child } = slot;
    const stderr = child.stderr as { ref?: () => void; unref?: () => void } | null;
    if (idle) {
      child.unref();
      child.channel?.unref();
      stderr?.unref?.();
    } else {
      child.ref();
      child.channel?.ref();
      stderr?.ref?.();
    }
  }

  private assign(slot: Slot, job: Job): void {
    slot.job = job;
    this.setIdle(slot, false);
    slot.timer = setTimeout(() => {
      slot.killedFor = `resvg took longer than ${(job.timeoutMs / 1000).toFixed(0)} s ${VERB[job.work.kind]} ${job.label}: its process was killed`;
      slot.child.kill('SIGKILL');
    }, job.timeoutMs);
    slot.child.send({ id: job.id, ...job.work }, (err) => {
      if (!err || slot.gone) return;
      slot.killedFor ??= `could not hand ${job.label} to the render process: ${err.message}`;
      slot.child.kill('SIGKILL');
    });
  }

  private onReply(slot: Slot, msg: ChildReply): void {
    const job = slot.job;
    if (!job || msg.id !== job.id) return;
    clearTimeout(slot.timer);
    slot.job = undefined;
    slot.timer = undefined;
    this.setIdle(slot, true);
    if (job.work.kind === 'normalize') {
      if (msg.error !== undefined || msg.text === undefined) job.reject(new Error(`resvg could not read ${job.label}: ${msg.error ?? 'no text came back'}`));
      else job.resolve(msg.text);
    } else if (msg.error !== undefined || !msg.pixels) {
      job.reject(new Error(`resvg could not render ${job.label}: ${msg.error ?? 'no pixels came back'}`));
    } else {
      const p = msg.pixels;
      const pixels = Buffer.isBuffer(p) ? p : Buffer.from(p.buffer, p.byteOffset, p.byteLength);
      job.resolve({ width: msg.width ?? 0, height: msg.height ?? 0, pixels });
    }
    this.dispatch();
  }

  private onGone(slot: Slot, how: string): void {
    if (slot.gone) return;
    slot.gone = true;
    clearTimeout(slot.timer);
    this.slots.delete(slot);
    liveChildren.delete(slot.child);
    const job = slot.job;
    slot.job = undefined;
    if (job) {
      if (slot.killedFor !== CLOSED) this.crashes++;
      const panic = panicOf(slot.stderr);
      job.reject(
        new Error(
          slot.killedFor ??
            `resvg crashed while ${VERB[job.work.kind]} ${job.label} (render process ended with ${how}${panic ? `: ${panic}` : ''}); ${job.work.kind === 'render' ? 'other renders go on' : 'the server goes on'}`,
        ),
      );
    }
    // Jobs waiting get a fresh child.
    this.dispatch();
  }
}

let shared: RenderPool | undefined;

/** The process-wide pool the tile pipeline renders and normalises with. */
export function renderPool(): RenderPool {
  shared ??= new RenderPool();
  return shared;
}

/** Stops the shared pool's children (shutdown, tests); the next job starts new ones. */
export async function disposeRenderPool(): Promise<void> {
  await shared?.dispose();
}
