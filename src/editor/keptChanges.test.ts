import { describe, expect, it } from 'vitest';
import type { KeptChange } from './commands';
import { parseKeptChange, parseKeptChanges, storedKeptChanges } from './keptChanges';
import { marker } from './testing/fakes';

const move: KeptChange = { uid: 'm1', base: marker('m1', { version: 3 }), marker: marker('m1', { version: 3, geometry: { x: 5, y: 6 } }), basedOn: 3 };
const remove: KeptChange = { uid: 'm2', base: marker('m2', { version: 1 }), marker: null, basedOn: 1 };
const woods: KeptChange = { uid: 'w1', base: marker('w1', { map: 'woods', version: 2 }), marker: marker('w1', { map: 'woods', version: 2, name: 'Cabin' }), basedOn: 2 };

describe('kept changes as the tab stores them (parseKeptChanges / storedKeptChanges)', () => {
  it('reads back what it stored, every map’s, with the version each is sent on', () => {
    const text = storedKeptChanges([move, remove, woods]);
    expect(JSON.parse(text!)).toEqual({ customs: [move, remove], woods: [woods] });
    expect(parseKeptChanges(text)).toEqual([move, remove, woods]);
  });

  it('stores nothing (the entry removed) when nothing is kept', () => {
    expect(storedKeptChanges([])).toBeNull();
    expect(parseKeptChanges(null)).toEqual([]);
  });

  it('keeps a change sent without a version as one', () => {
    const unversioned = { ...move, basedOn: undefined };
    expect(parseKeptChanges(storedKeptChanges([unversioned]))).toEqual([{ ...unversioned, basedOn: undefined }]);
  });

  it('reads unreadable or old text as nothing', () => {
    for (const text of ['', '{', 'null', '[]', '42', '"x"', JSON.stringify([move]), JSON.stringify({ customs: 'm1' })]) {
      expect(parseKeptChanges(text)).toEqual([]);
    }
  });

  it('leaves out a change that is not one well-formed change of the map it is filed under', () => {
    const bad: unknown[] = [
      null,
      'm1',
      { ...move, uid: 7 },
      { ...move, uid: '' },
      { ...move, uid: 'other' }, // its markers are m1's
      { ...move, base: { ...move.base, geometry: 'here' } },
      { ...move, base: undefined },
      { ...move, marker: { ...move.marker, uid: 'm9' } },
      { ...move, marker: { ...move.marker, map: 'woods' } },
      { ...move, marker: undefined }, // neither a marker nor a delete
      { ...move, basedOn: -1 },
      { ...move, basedOn: 1.5 },
      { ...move, basedOn: '3' },
      woods, // filed under customs
    ];
    for (const item of bad) expect(parseKeptChange(item, 'customs')).toBeNull();
    expect(parseKeptChanges(JSON.stringify({ customs: [...bad, remove] }))).toEqual([remove]);
  });

  it('takes one change per marker (the first) and never shares objects with the text it read', () => {
    const later = { ...move, marker: marker('m1', { version: 3, geometry: { x: 9, y: 9 } }) };
    const [first, ...rest] = parseKeptChanges(JSON.stringify({ customs: [move, later] }));
    expect(rest).toEqual([]);
    expect(first).toEqual(move);
    expect(parseKeptChange(move, 'customs')!.base).not.toBe(move.base);
  });
});
