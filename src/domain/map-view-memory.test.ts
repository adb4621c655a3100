import { describe, expect, it } from 'vitest';
import { addressIntent, MAX_REMEMBERED_QUESTS, parseRememberedView, serializeRememberedView, viewMemoryKey, viewToRestore } from './map-view-memory';
import { MAPS } from './maps';

const factory = MAPS.factory; // 3600 × 3600, zoom 0.12 … 10, levels 3, 2, 1, −1

const raw = (value: unknown) => JSON.stringify(value);

describe('the remembered map view', () => {
  it('is kept per map under map:view:{mapId}', () => {
    expect(viewMemoryKey('factory')).toBe('map:view:factory');
  });

  it('reads back what was written', () => {
    const view = { level: -1, camera: { x: 1200.5, y: 800, zoom: 2.25 }, quests: ['q1', 'q2'] };
    expect(parseRememberedView(serializeRememberedView(view), factory)).toEqual(view);
  });

  it('gives nothing for no value, bad JSON or a value that is not an object', () => {
    for (const value of [null, '', '{', 'null', '42', '"x"', '[1,2]', 'true']) expect(parseRememberedView(value, factory)).toEqual({});
  });

  it('leaves out a level the map does not have, or one that is not a number', () => {
    expect(parseRememberedView(raw({ level: 4 }), factory)).toEqual({});
    expect(parseRememberedView(raw({ level: 0 }), factory)).toEqual({});
    expect(parseRememberedView(raw({ level: '2' }), factory)).toEqual({});
    expect(parseRememberedView(raw({ level: 2.5 }), factory)).toEqual({});
    expect(parseRememberedView(raw({ level: 4 }), MAPS.customs)).toEqual({ level: 4 });
  });

  it('leaves out a camera with a zoom out of the map’s range, a centre off the map, or values that are not numbers', () => {
    const ok = { x: 100, y: 200, zoom: 1 };
    expect(parseRememberedView(raw({ camera: ok }), factory)).toEqual({ camera: ok });
    for (const camera of [
      { ...ok, zoom: 11 },
      { ...ok, zoom: 0.1 },
      { ...ok, zoom: 0 },
      { ...ok, x: -1 },
      { ...ok, y: 3601 },
      { ...ok, x: '100' },
      { x: 100, y: 200 },
      { ...ok, zoom: null },
      [100, 200, 1],
      'here',
    ]) {
      expect(parseRememberedView(raw({ camera }), factory)).toEqual({});
    }
    // NaN and Infinity are stored as null by JSON; a hand-made value is checked all the same.
    expect(parseRememberedView('{"camera":{"x":1e999,"y":1,"zoom":1}}', factory)).toEqual({});
  });

  it('keeps the valid parts of a value whose other parts are bad', () => {
    expect(parseRememberedView(raw({ level: 9, camera: { x: 10, y: 10, zoom: 1 }, quests: 'q1' }), factory)).toEqual({ camera: { x: 10, y: 10, zoom: 1 } });
  });

  it('keeps quest uids that are strings, trimmed and de-duplicated, in order, cut to a sane length', () => {
    expect(parseRememberedView(raw({ quests: [' q1', 'q2', 'q1', 7, '', null, 'x'.repeat(300), 'q3'] }), factory)).toEqual({ quests: ['q1', 'q2', 'q3'] });
    expect(parseRememberedView(raw({ quests: [] }), factory)).toEqual({ quests: [] });
    const many = Array.from({ length: 150 }, (_, i) => `q${i}`);
    expect(parseRememberedView(raw({ quests: many }), factory).quests).toHaveLength(MAX_REMEMBERED_QUESTS);
  });
});

describe('what the address lets come back', () => {
  const remembered = { level: 2, camera: { x: 1, y: 2, zoom: 3 }, quests: ['q1'] };

  it('reads what the first address says it shows', () => {
    expect(addressIntent('', '')).toEqual({ obj: false, quest: false, pos: false, overlay: false });
    expect(addressIntent('?obj=m1&quest=q1', '#pos=1_2_3')).toEqual({ obj: true, quest: true, pos: true, overlay: false });
    expect(addressIntent('?overlay=1', '').overlay).toBe(true);
    // Empty or malformed parameters say nothing.
    expect(addressIntent('?obj=&quest=,', '#pos=nowhere')).toEqual({ obj: false, quest: false, pos: false, overlay: false });
  });

  it('brings everything back to a plain address', () => {
    expect(viewToRestore(remembered, addressIntent('?lang=ru', ''))).toEqual(remembered);
  });

  it('lets a marker link win over the level, the camera and the quests', () => {
    expect(viewToRestore(remembered, addressIntent('?obj=m1', ''))).toEqual({});
  });

  it('lets a position win over the level and the camera, not the quests', () => {
    expect(viewToRestore(remembered, addressIntent('', '#pos=10_20_1'))).toEqual({ quests: ['q1'] });
  });

  it('lets ?quest= win over the quests, not the level and the camera', () => {
    expect(viewToRestore(remembered, addressIntent('?quest=q2', ''))).toEqual({ level: 2, camera: remembered.camera });
  });

  it('brings nothing back to the stream overlay', () => {
    expect(viewToRestore(remembered, addressIntent('?overlay=1', ''))).toEqual({});
  });
});
