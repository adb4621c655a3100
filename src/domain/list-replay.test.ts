import { describe, expect, it } from 'vitest';
import { createChangeJournal, HELD_CHANGE_KEEP_MS, REPLAY_MARGIN_MS } from './list-replay';

const m = (uid: string, x: number, version: number) => ({ uid, x, version });

describe('changes put back on a list read again', () => {
  it('puts back each marker\'s latest change made after the list was asked for (less the margin), oldest first', () => {
    const journal = createChangeJournal();
    journal.record('a', m('a', 1, 2), 1_000);
    journal.record('b', m('b', 1, 5), 1_950);
    journal.record('c', null, 2_050);
    journal.record('b', m('b', 2, 6), 2_100);
    // Asked for at 2,000: 'a' (1,000) is in the list for sure; 'b' and 'c' may not be.
    expect(journal.replayFor(2_000)).toEqual([
      { uid: 'c', marker: null },
      { uid: 'b', marker: m('b', 2, 6) },
    ]);
    // Within the margin before the request: put back too.
    expect(journal.replayFor(1_950 + REPLAY_MARGIN_MS - 1).map((c) => c.uid)).toEqual(['c', 'b']);
    expect(journal.replayFor(5_000)).toEqual([]);
  });

  it('forgets what a loaded list holds for sure, another map\'s changes, and very old ones', () => {
    const journal = createChangeJournal();
    journal.record('a', m('a', 1, 2), 1_000);
    journal.record('b', m('b', 1, 2), 3_000);
    journal.settled(2_000 + REPLAY_MARGIN_MS);
    expect(journal.size).toBe(1);
    expect(journal.replayFor(0).map((c) => c.uid)).toEqual(['b']);
    journal.record('c', null, 3_000 + HELD_CHANGE_KEEP_MS);
    expect(journal.replayFor(0).map((c) => c.uid)).toEqual(['c']);
    journal.clear();
    expect(journal.size).toBe(0);
  });
});
