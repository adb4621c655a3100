import { describe, expect, it } from 'vitest';
import {
  FREE_QUEST_LIMIT, addToSelection, applyQuestAction, dropUnknownQuestMarkers, isQuestActive,
  normalizeSelection, parseQuestParam, removeFromSelection, sortQuests,
} from './quests';

describe('quest selection', () => {
  it('de-duplicates and cuts to 3 for free users, with the limit flag', () => {
    expect(FREE_QUEST_LIMIT).toBe(3);
    expect(normalizeSelection(['a', 'b', 'a', 'c'], false)).toEqual({ ids: ['a', 'b', 'c'], limited: false });
    expect(normalizeSelection(['a', 'b', 'c', 'd', 'e'], false)).toEqual({ ids: ['a', 'b', 'c'], limited: true });
    expect(normalizeSelection(['a', 'b', 'c', 'd', 'b'], true)).toEqual({ ids: ['a', 'b', 'c', 'd'], limited: false });
    expect(normalizeSelection([' a ', '', 'a'], false).ids).toEqual(['a']);
  });

  it('ignores a fourth quest for free users and shows the notice', () => {
    expect(addToSelection(['a', 'b', 'c'], 'd', false)).toEqual({ ids: ['a', 'b', 'c'], limited: true });
    expect(addToSelection(['a', 'b', 'c'], 'd', true)).toEqual({ ids: ['a', 'b', 'c', 'd'], limited: false });
    expect(addToSelection(['a'], 'a', false)).toEqual({ ids: ['a'], limited: false });
    expect(removeFromSelection(['a', 'b'], 'a')).toEqual(['b']);
  });

  it('reads ?quest= as one uid or a comma-separated list', () => {
    expect(parseQuestParam('q1')).toEqual(['q1']);
    expect(parseQuestParam('q1, q2,,q3')).toEqual(['q1', 'q2', 'q3']);
    expect(parseQuestParam(null)).toEqual([]);
  });
});

describe('quest list', () => {
  const quests = [
    { uid: '1', name: 'Delivery from the Past', ruName: 'Посылка из прошлого' },
    { uid: '2', name: 'Background Check', ruName: 'Проверка на вшивость' },
    { uid: '3', name: 'Shortage', ruName: 'Дефицит' },
  ];
  it('sorts by Russian name in ru, otherwise by name', () => {
    expect(sortQuests(quests, 'en').map((q) => q.uid)).toEqual(['2', '1', '3']);
    expect(sortQuests(quests, 'ru').map((q) => q.uid)).toEqual(['3', '1', '2']);
  });
  it('drops markers tied to quests that are not in the list', () => {
    const markers = [{ uid: 'a' }, { uid: 'b', questUid: '1' }, { uid: 'c', questUid: 'gone' }, { uid: 'd', questUid: null }];
    expect(dropUnknownQuestMarkers(markers, new Set(['1'])).map((m) => m.uid)).toEqual(['a', 'b', 'd']);
  });
});

describe('quest actions', () => {
  const empty = { questsDone: [], questsHidden: [] };
  it('complete / reopen / hide / show change the right list, idempotently', () => {
    const done = applyQuestAction(empty, 'complete', 'q');
    expect(done).toEqual({ questsDone: ['q'], questsHidden: [] });
    expect(applyQuestAction(done, 'complete', 'q')).toEqual(done);
    expect(applyQuestAction(done, 'reopen', 'q')).toEqual(empty);
    const hidden = applyQuestAction(empty, 'hide', 'q');
    expect(hidden).toEqual({ questsDone: [], questsHidden: ['q'] });
    expect(applyQuestAction(hidden, 'show', 'q')).toEqual(empty);
  });
  it('a quest is active when neither done nor hidden', () => {
    expect(isQuestActive('q', empty)).toBe(true);
    expect(isQuestActive('q', { questsDone: ['q'], questsHidden: [] })).toBe(false);
    expect(isQuestActive('q', { questsDone: [], questsHidden: ['q'] })).toBe(false);
  });
});
