import { describe, expect, it } from 'vitest';
import { hiddenByProgress, questGivingPlace, swapStands, undoSwap } from './quest-marker-shown';

describe('questGivingPlace', () => {
  it('is the quest followed longest, only for a visitor at the free limit', () => {
    expect(questGivingPlace(['a', 'b', 'c'], 'd', false)).toBe('a');
    expect(questGivingPlace(['a', 'b'], 'd', false)).toBeNull();
    expect(questGivingPlace(['a', 'b', 'c'], 'b', false)).toBeNull();
    expect(questGivingPlace(['a', 'b', 'c'], 'd', true)).toBeNull();
  });
});

describe('undoSwap', () => {
  const swap = { followed: 'd', dropped: 'a', before: ['a', 'b', 'c'] };
  it('puts the dropped quest back in its place and drops the marker\'s', () => {
    expect(swapStands(['b', 'c', 'd'], swap)).toBe(true);
    expect(undoSwap(['b', 'c', 'd'], swap)).toEqual(['a', 'b', 'c']);
  });
  it('keeps what the user changed since', () => {
    expect(undoSwap(['c', 'd'], swap)).toEqual(['a', 'c']);
    expect(swapStands(['a', 'c', 'd'], swap)).toBe(false);
    expect(swapStands(['b', 'c'], swap)).toBe(false);
  });
});

describe('hiddenByProgress', () => {
  const user = { questsDone: ['done'], questsHidden: ['hid', 'both'] };
  it('says why own progress keeps a quest off the map, only while it is in force', () => {
    expect(hiddenByProgress(user, true, 'done')).toEqual({ done: true, hidden: false });
    expect(hiddenByProgress(user, true, 'hid')).toEqual({ done: false, hidden: true });
    expect(hiddenByProgress({ ...user, questsDone: ['both'] }, true, 'both')).toEqual({ done: true, hidden: true });
    expect(hiddenByProgress(user, true, 'other')).toBeNull();
    expect(hiddenByProgress(user, false, 'done')).toBeNull();
    expect(hiddenByProgress(null, true, 'done')).toBeNull();
  });
});
