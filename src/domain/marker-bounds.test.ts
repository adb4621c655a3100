import { describe, expect, it } from 'vitest';
import { MAPS } from './maps';
import { validateMarkers } from './marker';
import { MARKER_BOUNDS, coordinateBounds, imageUrlProblem, isMarkerField, measureJson, passThroughIssue, utf8Length } from './marker-bounds';

const good = {
  uid: 'm1', map: 'customs', category: 'Loot', subCategory: 'Safe', level: 1,
  geometry: { x: 10, y: 20 }, name: 'Safe', desc: 'A safe',
  name_l10n: { en: 'Safe', ru: 'Сейф' }, desc_l10n: { en: 'A safe' },
  imgs: [{ img: '/uploads/a.webp', name: 'a', desc: '' }], questUid: 'q1', itemsUid: ['i1'],
};

/** `[[[…]]]` nested `depth` deep, built without recursion. */
function nestedArrays(depth: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
}

/** The issues of one marker as `path: message`, or [] when it is valid. */
function issuesOf(over: Record<string, unknown>): string[] {
  const { issues } = validateMarkers([{ ...good, ...over }]);
  return issues.flatMap((i) => i.message.split('; '));
}

describe('measureJson', () => {
  it('measures depth and values', () => {
    expect(measureJson(1, 8, 100)).toEqual({ depth: 0, nodes: 1, tooDeep: false, tooLarge: false });
    expect(measureJson([], 8, 100)).toMatchObject({ depth: 1, nodes: 1 });
    expect(measureJson({ a: [1, { b: 2 }] }, 8, 100)).toMatchObject({ depth: 3, nodes: 5, tooDeep: false });
  });

  it('stops at the first container beyond the depth, however deep the value is (no stack overflow)', () => {
    expect(measureJson(nestedArrays(9), 8, 1e6).tooDeep).toBe(true);
    expect(measureJson(nestedArrays(8), 8, 1e6).tooDeep).toBe(false);
    const deep = nestedArrays(200_000);
    const started = performance.now();
    expect(measureJson(deep, 8, 1e6)).toMatchObject({ tooDeep: true, depth: 9 });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('stops once more values are seen than allowed, without walking a huge list', () => {
    const wide = new Array(1_000_000).fill(0);
    expect(measureJson(wide, 8, 8192)).toMatchObject({ tooLarge: true, tooDeep: false });
    expect(measureJson(new Array(100).fill(0), 8, 8192)).toMatchObject({ tooLarge: false, nodes: 101 });
  });
});

describe('passThroughIssue', () => {
  it('looks only at fields beyond the known ones', () => {
    expect(isMarkerField('imgs')).toBe(true);
    expect(isMarkerField('extra')).toBe(false);
    expect(passThroughIssue({ ...good, desc: 'x'.repeat(100_000) })).toBeUndefined();
    expect(passThroughIssue({ ...good, note: 'kept', n: 42, flags: { a: [1, 2] } })).toBeUndefined();
  });

  it('refuses nesting deeper than the bound, naming the field (5,000 nested arrays of the report)', () => {
    expect(passThroughIssue({ ...good, ok: nestedArrays(8), deep: nestedArrays(5000) })).toEqual({
      field: 'deep', message: `is nested more than ${MARKER_BOUNDS.passThrough.depth} levels deep`,
    });
  });

  it('refuses too many fields, naming the first one beyond the count', () => {
    const fields: Record<string, unknown> = {};
    for (let i = 0; i < MARKER_BOUNDS.passThrough.fields; i++) fields[`f${i}`] = i;
    expect(passThroughIssue({ ...good, ...fields })).toBeUndefined();
    expect(passThroughIssue({ ...good, ...fields, last: 1 })).toMatchObject({ field: 'last', message: expect.stringMatching(/too many/) });
    // Undefined values are not stored, so they do not count.
    expect(passThroughIssue({ ...good, ...fields, gone: undefined })).toBeUndefined();
  });

  it('bounds the size of all of them together as UTF-8 JSON', () => {
    const max = MARKER_BOUNDS.passThrough.bytes;
    // {"a":"…"} is 8 bytes beside the text.
    expect(passThroughIssue({ a: 'x'.repeat(max - 8) })).toBeUndefined();
    expect(passThroughIssue({ a: 'x'.repeat(max - 7) })).toMatchObject({ field: 'a', message: expect.stringMatching(/larger than/) });
    // Cyrillic letters are two bytes each.
    expect(passThroughIssue({ a: 'я'.repeat((max - 8) / 2) })).toBeUndefined();
    expect(passThroughIssue({ a: 'я'.repeat((max - 8) / 2 + 1) })).toMatchObject({ field: 'a' });
    // Spread over fields: the one that crosses the bound is named.
    expect(passThroughIssue({ a: 'x'.repeat(max / 2), b: 'x'.repeat(max / 2) })).toMatchObject({ field: 'b' });
    expect(passThroughIssue({ a: new Array(max).fill(1) })).toMatchObject({ field: 'a', message: expect.stringMatching(/larger than/) });
  });

  it('counts UTF-8 bytes like the encoder does', () => {
    for (const text of ['', 'abc', 'Сейф', '€', '😀 and 😀', '\ud800 lone']) {
      expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
    }
  });
});

describe('imageUrlProblem', () => {
  it('takes http(s) URLs and paths on the site', () => {
    for (const url of ['/uploads/markers/m-0.webp?v=1', 'https://cdn.example.com/a.png', 'http://x.test/a b.png', '/img/markers/a.png', 'b.webp']) {
      expect(imageUrlProblem(url), url).toBeUndefined();
    }
  });

  it('refuses other schemes, steps out of a folder, control characters and long URLs', () => {
    for (const url of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:image/png;base64,AAAA', 'blob:https://x/1', '//evil.test/a.png', 'https://']) {
      expect(imageUrlProblem(url), url).toMatch(/scheme|http/);
    }
    expect(imageUrlProblem('/uploads/../raidmap.sqlite')).toMatch(/\.\./);
    expect(imageUrlProblem('/uploads/%2e%2e/x')).toMatch(/\.\./);
    expect(imageUrlProblem('/uploads/a\\b.png')).toMatch(/backslash/);
    expect(imageUrlProblem('/uploads/a\nb.png')).toMatch(/control/);
    expect(imageUrlProblem('')).toMatch(/empty/);
    expect(imageUrlProblem(`/uploads/${'a'.repeat(MARKER_BOUNDS.imageUrl)}`)).toMatch(/at most/);
  });
});

describe('marker field bounds (markerSchema)', () => {
  const B = MARKER_BOUNDS;

  it('takes a marker with every field at its bound', () => {
    const box = coordinateBounds('customs');
    expect(issuesOf({
      uid: 'u'.repeat(B.uid),
      name: 'n'.repeat(B.name),
      name_l10n: { en: 'n'.repeat(B.name), ru: 'я'.repeat(B.name) },
      desc: 'd'.repeat(B.desc),
      desc_l10n: { en: 'd'.repeat(B.desc), ru: 'д'.repeat(B.desc) },
      imgs: Array.from({ length: B.images }, (_, i) => ({ img: `/uploads/${i}.webp`, name: 'n'.repeat(B.imageName), desc: 'd'.repeat(B.imageDesc) })),
      itemsUid: Array.from({ length: B.items }, (_, i) => `${i}`.padEnd(B.itemUid, 'x')),
      questUid: 'q'.repeat(B.questUid),
      level: B.level.max,
      geometry: { x: box.maxX, y: box.minY },
    })).toEqual([]);
    expect(issuesOf({ level: B.level.min, geometry: { x: box.minX, y: box.maxY } })).toEqual([]);
  });

  it('refuses each field one beyond its bound, naming the field', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ uid: 'u'.repeat(B.uid + 1) }, /^uid: must be at most 64 characters/],
      [{ name: 'n'.repeat(B.name + 1) }, /^name: must be at most 200/],
      [{ name_l10n: { ru: 'я'.repeat(B.name + 1) } }, /^name_l10n\.ru: must be at most 200/],
      [{ desc: 'd'.repeat(B.desc + 1) }, /^desc: must be at most 4000/],
      [{ desc_l10n: { en: 'd'.repeat(B.desc + 1) } }, /^desc_l10n\.en: /],
      [{ imgs: Array.from({ length: B.images + 1 }, () => ({ img: '/uploads/a.webp' })) }, /^imgs: must have at most 20 images/],
      [{ imgs: [{ img: '/uploads/a.webp', name: 'n'.repeat(B.imageName + 1) }] }, /^imgs\.0\.name: /],
      [{ imgs: [{ img: '/uploads/a.webp', desc: 'd'.repeat(B.imageDesc + 1) }] }, /^imgs\.0\.desc: /],
      [{ imgs: [{ img: 'javascript:alert(1)' }] }, /^imgs\.0\.img: /],
      [{ itemsUid: Array.from({ length: B.items + 1 }, (_, i) => `i${i}`) }, /^itemsUid: must have at most 100 items/],
      [{ itemsUid: ['i'.repeat(B.itemUid + 1)] }, /^itemsUid\.0: /],
      [{ questUid: 'q'.repeat(B.questUid + 1) }, /^questUid: /],
      [{ category: 'c'.repeat(B.category + 1) }, /^category: /],
      [{ level: B.level.max + 1 }, /^level: must be a whole number from -5 to 10/],
      [{ level: B.level.min - 1 }, /^level: must be a whole number from -5 to 10/],
      [{ deep: nestedArrays(5000) }, /^deep: is nested more than 8 levels deep/],
    ];
    for (const [over, message] of cases) {
      const issues = issuesOf(over);
      expect(issues.some((i) => message.test(i)), `${Object.keys(over)[0]}: ${issues.join(' | ')}`).toBe(true);
    }
  });

  it('keeps coordinates within the map and a margin of a tenth of its size', () => {
    const { width, height } = MAPS.customs.size;
    const box = coordinateBounds('customs');
    expect(box).toEqual({ minX: -width * 0.1, maxX: width + width * 0.1, minY: -height * 0.1, maxY: height + height * 0.1 });
    expect(issuesOf({ geometry: { x: box.maxX + 1, y: 0 } })).toEqual([expect.stringMatching(/^geometry\.x: must be from/)]);
    expect(issuesOf({ geometry: { x: 0, y: box.minY - 1 } })).toEqual([expect.stringMatching(/^geometry\.y: must be from/)]);
    expect(issuesOf({ geometry: { x: 1e300, y: -1e300 } })).toHaveLength(2);
  });
});
