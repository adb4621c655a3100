/**
 * Undo / redo in named steps (tldraw's `HistoryManager`, docs/STYLE.md 14). A step is data
 * (`{ label, ... }`, excalidraw's actions as data); the owner says how to apply one in either
 * direction. Pure: no DOM, no API, no valtio.
 *
 * - `record(step)` pushes a step and clears the redo stack. Only this user's own changes are
 *   recorded: remote changes and loading never reach `record`.
 * - At most `depth` steps are kept (the oldest is dropped).
 * - `undo()` / `redo()` run one after the other, never interleaved: a call made while one runs
 *   waits for it (pressing Ctrl+Z twice quickly undoes two steps, in order).
 * - A step whose apply throws goes back to the stack it came from, and the error is rethrown.
 * - A step recorded while an undo / redo is running clears redo; the running step is then
 *   dropped instead of being pushed onto the redo stack it no longer belongs to.
 */

export type HistoryDirection = 'undo' | 'redo';

export interface HistoryStep {
  /** What the step did, for menus and tooltips ("Move marker"). */
  readonly label: string;
}

export interface HistoryOptions<S extends HistoryStep> {
  /** Applies `step` backwards (`undo`) or forwards again (`redo`). */
  apply(step: S, direction: HistoryDirection): Promise<void>;
  /** Most steps kept on the undo stack (default 100). */
  depth?: number;
}

export interface History<S extends HistoryStep> {
  record(step: S): void;
  /** Undoes the newest step; resolves with it, or null when there was none. */
  undo(): Promise<S | null>;
  redo(): Promise<S | null>;
  canUndo(): boolean;
  canRedo(): boolean;
  undoLabel(): string | null;
  redoLabel(): string | null;
  /** True while an undo or redo is being applied. */
  busy(): boolean;
  /** Forgets every step (a new map, a reset). */
  clear(): void;
  /** Called after every change of the stacks or of `busy`. */
  subscribe(listener: () => void): () => void;
}

export const DEFAULT_HISTORY_DEPTH = 100;

export function createHistory<S extends HistoryStep>(options: HistoryOptions<S>): History<S> {
  const depth = Math.max(1, Math.floor(options.depth ?? DEFAULT_HISTORY_DEPTH));
  const undoStack: S[] = [];
  const redoStack: S[] = [];
  const listeners = new Set<() => void>();
  let running = 0;
  /** Moves on with every record and clear: a step applied across one does not come back. */
  let generation = 0;
  let queue: Promise<unknown> = Promise.resolve();

  const notify = () => {
    for (const listener of [...listeners]) listener();
  };

  const trim = () => {
    if (undoStack.length > depth) undoStack.splice(0, undoStack.length - depth);
  };

  async function step(direction: HistoryDirection): Promise<S | null> {
    const from = direction === 'undo' ? undoStack : redoStack;
    const to = direction === 'undo' ? redoStack : undoStack;
    const entry = from.pop();
    if (!entry) return null;
    const started = generation;
    running += 1;
    notify();
    try {
      await options.apply(entry, direction);
      if (generation === started) {
        to.push(entry);
        trim();
      }
      return entry;
    } catch (error) {
      if (generation === started) from.push(entry);
      throw error;
    } finally {
      running -= 1;
      notify();
    }
  }

  function enqueue(direction: HistoryDirection): Promise<S | null> {
    const run = queue.then(() => step(direction));
    queue = run.catch(() => undefined);
    return run;
  }

  return {
    record(entry) {
      generation += 1;
      undoStack.push(entry);
      redoStack.length = 0;
      trim();
      notify();
    },
    undo: () => enqueue('undo'),
    redo: () => enqueue('redo'),
    canUndo: () => undoStack.length > 0,
    canRedo: () => redoStack.length > 0,
    undoLabel: () => undoStack.at(-1)?.label ?? null,
    redoLabel: () => redoStack.at(-1)?.label ?? null,
    busy: () => running > 0,
    clear() {
      generation += 1;
      undoStack.length = 0;
      redoStack.length = 0;
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
