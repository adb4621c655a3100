import { describe, expect, it } from 'vitest';
import { createHistory, type HistoryDirection } from './history';

interface Step {
  label: string;
  n: number;
}

function setup(depth?: number) {
  const applied: string[] = [];
  const history = createHistory<Step>({
    depth,
    apply: async (step: Step, direction: HistoryDirection) => {
      applied.push(`${direction} ${step.label}`);
    },
  });
  return { history, applied };
}

const step = (n: number): Step => ({ label: `s${n}`, n });

describe('history', () => {
  it('undoes steps newest first and redoes them in order', async () => {
    const { history, applied } = setup();
    expect(history.canUndo()).toBe(false);
    history.record(step(1));
    history.record(step(2));
    expect(history.undoLabel()).toBe('s2');
    await history.undo();
    await history.undo();
    expect(await history.undo()).toBeNull();
    expect(history.canUndo()).toBe(false);
    expect(history.canRedo()).toBe(true);
    await history.redo();
    expect(history.redoLabel()).toBe('s2');
    await history.redo();
    expect(applied).toEqual(['undo s2', 'undo s1', 'redo s1', 'redo s2']);
    expect(history.canRedo()).toBe(false);
  });

  it('clears redo when a new step is recorded', async () => {
    const { history } = setup();
    history.record(step(1));
    await history.undo();
    expect(history.canRedo()).toBe(true);
    history.record(step(2));
    expect(history.canRedo()).toBe(false);
    expect(history.undoLabel()).toBe('s2');
  });

  it('keeps at most `depth` steps, dropping the oldest', async () => {
    const { history, applied } = setup(3);
    for (let n = 1; n <= 5; n += 1) history.record(step(n));
    while (await history.undo());
    expect(applied).toEqual(['undo s5', 'undo s4', 'undo s3']);
  });

  it('keeps 100 steps by default', async () => {
    const { history, applied } = setup();
    for (let n = 1; n <= 150; n += 1) history.record(step(n));
    while (await history.undo());
    expect(applied).toHaveLength(100);
    expect(applied.at(-1)).toBe('undo s51');
  });

  it('runs undo / redo one after the other, never interleaved', async () => {
    const log: string[] = [];
    const releases: (() => void)[] = [];
    const history = createHistory<Step>({
      apply: (s, direction) =>
        new Promise<void>((resolve) => {
          log.push(`start ${direction} ${s.label}`);
          releases.push(() => {
            log.push(`end ${direction} ${s.label}`);
            resolve();
          });
        }),
    });
    history.record(step(1));
    history.record(step(2));
    const first = history.undo();
    const second = history.undo();
    const third = history.redo();
    await Promise.resolve();
    await Promise.resolve();
    expect(history.busy()).toBe(true);
    expect(log).toEqual(['start undo s2']);
    releases.shift()!();
    await first;
    await new Promise((r) => setTimeout(r, 0));
    expect(log).toEqual(['start undo s2', 'end undo s2', 'start undo s1']);
    releases.shift()!();
    await second;
    await new Promise((r) => setTimeout(r, 0));
    releases.shift()!();
    await third;
    expect(log).toEqual(['start undo s2', 'end undo s2', 'start undo s1', 'end undo s1', 'start redo s1', 'end redo s1']);
    expect(history.busy()).toBe(false);
    expect(history.undoLabel()).toBe('s1');
    expect(history.redoLabel()).toBe('s2');
  });

  it('puts a step whose apply failed back where it was', async () => {
    const history = createHistory<Step>({
      apply: async () => {
        throw new Error('nope');
      },
    });
    history.record(step(1));
    await expect(history.undo()).rejects.toThrow('nope');
    expect(history.canUndo()).toBe(true);
    expect(history.canRedo()).toBe(false);
  });

  it('drops a running step when a new one is recorded meanwhile', async () => {
    let release = () => {};
    const history = createHistory<Step>({ apply: () => new Promise<void>((resolve) => (release = resolve)) });
    history.record(step(1));
    const undoing = history.undo();
    await Promise.resolve();
    await Promise.resolve();
    history.record(step(2));
    release();
    await undoing;
    expect(history.canRedo()).toBe(false);
    expect(history.undoLabel()).toBe('s2');
  });

  it('tells listeners about every change and forgets everything on clear', async () => {
    const { history } = setup();
    let calls = 0;
    const off = history.subscribe(() => (calls += 1));
    history.record(step(1));
    await history.undo();
    expect(calls).toBeGreaterThanOrEqual(3);
    history.clear();
    expect(history.canRedo()).toBe(false);
    off();
    const before = calls;
    history.record(step(2));
    expect(calls).toBe(before);
  });
});
