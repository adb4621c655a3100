import { describe, expect, it } from 'vitest';
import { type MarkerColumns, packColumns, packStrings, packedColumnBuffers, unpackColumns, unpackStrings } from './marker-columns';

describe('packed strings (uids and labels across the worker boundary)', () => {
  it('round-trips empty strings, surrogate pairs and an empty list', () => {
    const strings = ['', 'a', 'Имя — ✓', '😀😀', '', 'x'.repeat(300)];
    const packed = packStrings(strings);
    expect(packed.text).toBe(strings.join(''));
    expect(Array.from(packed.lengths)).toEqual([0, 1, 7, 4, 0, 300]);
    expect(unpackStrings(packed)).toEqual(strings);
    expect(unpackStrings(packStrings([]))).toEqual([]);
  });

  it('refuses lengths that do not add up to the text', () => {
    expect(() => unpackStrings({ text: 'abc', lengths: new Uint32Array([1, 1]) })).toThrow(/add up to 2, the text has 3/);
    expect(() => unpackStrings({ text: 'abc', lengths: new Uint32Array([2, 5]) })).toThrow(/add up to 7/);
  });

  it('packs columns: typed arrays kept, uids and labels as packs, every buffer listed for transfer', () => {
    const columns: MarkerColumns = {
      uids: ['a', 'bb', ''],
      x: new Float32Array([1, 2, 0]),
      y: new Float32Array([3, 4, 0]),
      level: new Int16Array([1, -1, 0]),
      icon: new Uint8Array([2, 3, 0]),
      labels: ['Safe', 'Ключ', ''],
      alwaysLabel: new Uint8Array([0, 1, 0]),
    };
    const packed = packColumns(columns);
    expect(packed.uids.text).toBe('abb');
    expect(packed.x).toBe(columns.x);
    expect(packedColumnBuffers(packed)).toHaveLength(7);
    expect(new Set(packedColumnBuffers(packed)).size).toBe(7);
    expect(unpackColumns(structuredClone(packed))).toEqual(columns);
  });
});
