import { describe, expect, it } from 'vitest';
import { MAX_PROGRESS_ENTRIES, nextProgress, type Progress } from './progress';

const known = (uid: string) => uid.startsWith('q');
const empty: Progress = { questsDone: [], questsHidden: [] };

describe('nextProgress', () => {
  it('applies a change to the stored lists: adds at the end once, removes, leaves the other list', () => {
    const stored = { questsDone: ['q1', 'q2'], questsHidden: ['q9'] };
    expect(nextProgress(stored, { done: { add: ['q3', 'q1', 'q3'], remove: ['q2'] } }, known)).toEqual({ progress: { questsDone: ['q1', 'q3'], questsHidden: ['q9'] } });
    expect(nextProgress(stored, { done: { remove: ['q1'] }, hidden: { add: ['q1'] } }, known)).toEqual({ progress: { questsDone: ['q2'], questsHidden: ['q9', 'q1'] } });
  });

  it('two changes one after the other both count (what two devices send at once)', () => {
    const first = nextProgress(empty, { done: { add: ['q5'] } }, known);
    if (!('progress' in first)) throw new Error(first.error);
    expect(nextProgress(first.progress, { done: { add: ['q6'] } }, known)).toEqual({ progress: { questsDone: ['q5', 'q6'], questsHidden: [] } });
  });

  it('refuses a new unknown uid, keeps one the list holds already, and removes any', () => {
    const stored = { questsDone: ['gone'], questsHidden: ['gone-too'] };
    expect(nextProgress(stored, { done: { add: ['q1', 'new-stale'] } }, known)).toEqual({ error: 'done: unknown quest uid(s): "new-stale"' });
    expect(nextProgress(stored, { done: { add: ['q1'] } }, known)).toEqual({ progress: { questsDone: ['gone', 'q1'], questsHidden: ['gone-too'] } });
    expect(nextProgress(stored, { hidden: { remove: ['gone-too', 'never-held'] } }, known)).toEqual({ progress: { questsDone: ['gone'], questsHidden: [] } });
    // The whole-list form of older pages: the stale uid it sends back is kept, a new one refused.
    expect(nextProgress(stored, { questsDone: ['gone', 'q2'] }, known)).toEqual({ progress: { questsDone: ['gone', 'q2'], questsHidden: ['gone-too'] } });
    expect(nextProgress(stored, { questsHidden: ['gone-too', 'x1', 'x2', 'x3', 'x4', 'x5', 'x6'] }, known)).toEqual({
      error: 'questsHidden: unknown quest uid(s): "x1", "x2", "x3", "x4", "x5" and 1 more',
    });
  });

  it('refuses a uid both added and removed, and a list past its bound', () => {
    expect(nextProgress(empty, { done: { add: ['q1'], remove: ['q1'] } }, known)).toEqual({ error: 'done: a quest uid is both added and removed: "q1"' });
    const full = { questsDone: Array.from({ length: MAX_PROGRESS_ENTRIES }, (_, i) => `q${i}`), questsHidden: [] };
    expect(nextProgress(full, { done: { add: ['q-one-more'] } }, known)).toEqual({ error: `done: may hold at most ${MAX_PROGRESS_ENTRIES} quest uids` });
    expect(nextProgress(full, { done: { add: ['q0'] } }, known)).toEqual({ progress: full });
  });
});
