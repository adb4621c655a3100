/**
 * The binary compact list decodes to exactly what the JSON compact list decodes to (the same
 * records, the same dropped rows), keeps positions exact, and refuses a damaged frame with a
 * clear error instead of reading past it.
 */
import { describe, expect, it } from 'vitest';
import { COMPACT_BINARY_VERSION, decodeCompactBinary, encodeCompactBinary, isCompactBinary } from './compact-binary';
import { CompactListError, type CompactMarkerList, type CompactSource, decodeCompactList, encodeCompactList } from './compact-markers';

function source(i: number, over: Partial<CompactSource> = {}): CompactSource {
  return {
    uid: `m${String(i).padStart(4, '0')}`,
    category: i % 3 === 0 ? 'Extractions' : 'Loot',
    subCategory: i % 3 === 0 ? 'PMC Extraction' : 'Safe',
    level: (i % 4) - 1,
    geometry: { x: 10 + i * 1.1, y: 0.1 + i / 7 },
    name: i % 5 === 0 ? '' : `Name ${i} — ✓`,
    name_l10n: { ru: `Имя ${i}` },
    questUid: i % 4 === 1 ? `q${i % 3}` : null,
    ...over,
  };
}

const sources = Array.from({ length: 50 }, (_, i) => source(i));

describe('binary compact list', () => {
  it.each(['en', 'ru'] as const)('decodes to the records the JSON list decodes to (%s)', (lang) => {
    const list = encodeCompactList(sources, 'customs', lang);
    const bytes = encodeCompactBinary(list);
    expect(isCompactBinary(bytes)).toBe(true);
    const fromBinary = decodeCompactBinary(bytes);
    expect(fromBinary).toEqual(decodeCompactList(JSON.parse(JSON.stringify(list))));
    expect(fromBinary.markers).toHaveLength(50);
    // Positions are exact (f64), not rounded to the engine's f32.
    expect(fromBinary.markers[7].y).toBe(0.1 + 7 / 7);
    expect(fromBinary.markers[3].x).toBe(10 + 3 * 1.1);
  });

  it('reads from an ArrayBuffer and from a Uint8Array at any offset (a pooled Buffer)', () => {
    const bytes = encodeCompactBinary(encodeCompactList(sources, 'customs', 'en'));
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    const expected = decodeCompactBinary(bytes.buffer as ArrayBuffer);
    expect(decodeCompactBinary(shifted.subarray(3))).toEqual(expected);
  });

  it('handles an empty list and uids and labels outside ASCII', () => {
    const empty = decodeCompactBinary(encodeCompactBinary(encodeCompactList([], 'factory', 'ru')));
    expect(empty).toEqual({ map: 'factory', lang: 'ru', markers: [], issues: [] });
    const odd = [source(1, { uid: 'ключ-😀', name: '𝄞 clef' })];
    const decoded = decodeCompactBinary(encodeCompactBinary(encodeCompactList(odd, 'customs', 'en')));
    expect(decoded.markers[0]).toMatchObject({ uid: 'ключ-😀', label: '𝄞 clef' });
  });

  it('drops and reports bad rows as the JSON list does', () => {
    const list: CompactMarkerList = encodeCompactList(sources.slice(0, 4), 'customs', 'en');
    list.x[0] = Number.NaN;
    list.level[1] = 99;
    list.level[2] = 1e6; // does not fit the i16 column: written as out of range
    list.kind[3] = 7;
    const decoded = decodeCompactBinary(encodeCompactBinary(list));
    expect(decoded.markers).toEqual([]);
    expect(decoded.issues.map((i) => [i.index, i.uid, i.message.split(':')[0]])).toEqual([
      [0, 'm0000', 'geometry'],
      [1, 'm0001', 'level'],
      [2, 'm0002', 'level'],
      [3, 'm0003', 'subCategory'],
    ]);
  });

  it('refuses a damaged frame with a clear error', () => {
    const bytes = encodeCompactBinary(encodeCompactList(sources.slice(0, 5), 'customs', 'en'));
    const copy = () => bytes.slice();
    expect(() => decodeCompactBinary(new TextEncoder().encode('{"format":"x"}'))).toThrow(/no "RMCB" magic/);
    const version = copy();
    new DataView(version.buffer).setUint32(4, COMPACT_BINARY_VERSION + 1, true);
    expect(() => decodeCompactBinary(version)).toThrow(/version 2 is not supported/);
    expect(() => decodeCompactBinary(bytes.slice(0, 10))).toThrow(CompactListError);
    expect(() => decodeCompactBinary(bytes.slice(0, bytes.length - 1))).toThrow(/bytes where its header says/);
    const headerLength = copy();
    new DataView(headerLength.buffer).setUint32(8, 1_000_000, true);
    expect(() => decodeCompactBinary(headerLength)).toThrow(/cut short inside its header/);
    const header = copy();
    header[12] = 0x5b; // '[': not the header object
    expect(() => decodeCompactBinary(header)).toThrow(/header/);
    // A uid length that runs past the uid text.
    const lengths = copy();
    const headerBytes = new DataView(bytes.buffer).getUint32(8, true);
    const start = (12 + headerBytes + 7) & ~7;
    new DataView(lengths.buffer).setUint32(start + 20 * 5, 999, true);
    expect(() => decodeCompactBinary(lengths)).toThrow(/lengths do not add up/);
    // Bytes that are not UTF-8 where the labels are.
    const text = copy();
    text[text.length - 1] = 0xff;
    expect(() => decodeCompactBinary(text)).toThrow(/not valid UTF-8/);
  });
});
