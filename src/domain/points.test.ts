// @vitest-environment jsdom
// (jsdom only for DOMParser: the tests parse the SVG the way a browser would; points.ts itself is pure.)
import { describe, expect, it } from 'vitest';
import { MAPS } from './maps';
import { addPoint, escapeXml, parsePoints, pointLabel, pointsStorageKey, pointsToSvg, serializePoints } from './points';
import { gameToMap } from './transform';

function parseSvg(text: string): Document {
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  const error = doc.getElementsByTagName('parsererror')[0];
  if (error) throw new Error(`not well-formed: ${error.textContent}`);
  return doc;
}

describe('saved points storage', () => {
  it('uses the map name with the suffix points', () => {
    expect(pointsStorageKey('customs')).toBe('customspoints');
  });

  it('keeps valid points, rounded, and drops bad entries', () => {
    expect(parsePoints([{ x: 1.234567, y: 2 }, { x: 'a', y: 1 }, null, { x: NaN, y: 1 }, { x: 3, y: 4, extra: 1 }, [1, 2]])).toEqual([
      { x: 1.2346, y: 2 },
      { x: 3, y: 4 },
    ]);
  });

  it('reads JSON text and treats junk or nothing as no points', () => {
    expect(parsePoints('[{"x":1,"y":2}]')).toEqual([{ x: 1, y: 2 }]);
    expect(parsePoints('{bad')).toEqual([]);
    expect(parsePoints(null)).toEqual([]);
    expect(parsePoints({ x: 1, y: 2 })).toEqual([]);
  });

  it('adds a rounded point without changing the list, and round-trips through text', () => {
    const list = [{ x: 1, y: 1 }];
    const next = addPoint(list, { x: 2.000049, y: -3.99996 });
    expect(next).toEqual([{ x: 1, y: 1 }, { x: 2, y: -4 }]);
    expect(list).toHaveLength(1);
    expect(addPoint(list, { x: Infinity, y: 0 })).toEqual(list);
    expect(parsePoints(serializePoints(next))).toEqual(next);
  });
});

describe('SVG export', () => {
  const points = [{ x: 10, y: 20 }, { x: 30.5, y: 40.25 }, { x: 50, y: 10 }];

  it('is a standalone SVG the size of the map with a polyline and a dot per point', () => {
    const doc = parseSvg(pointsToSvg(points, { width: 4400, height: 3200, showCoords: false }));
    const svg = doc.documentElement;
    expect(svg.namespaceURI).toBe('http://www.w3.org/2000/svg');
    expect([svg.getAttribute('width'), svg.getAttribute('height'), svg.getAttribute('viewBox')]).toEqual(['4400', '3200', '0 0 4400 3200']);
    expect(doc.getElementsByTagName('polyline')[0].getAttribute('points')).toBe('10,20 30.5,40.25 50,10');
    const circles = [...doc.getElementsByTagName('circle')].map((c) => [c.getAttribute('cx'), c.getAttribute('cy')]);
    expect(circles).toEqual([['10', '20'], ['30.5', '40.25'], ['50', '10']]);
    expect(doc.getElementsByTagName('text')).toHaveLength(0);
  });

  it('labels points with map coordinates, or game coordinates through the map transform', () => {
    const plain = parseSvg(pointsToSvg(points, { width: 100, height: 100, showCoords: true }));
    expect([...plain.getElementsByTagName('text')].map((t) => t.textContent)).toEqual(['10, 20', '30.5, 40.25', '50, 10']);

    const t = MAPS.customs.transform;
    const at = gameToMap(t, { gameX: 12.5, gameZ: -40 });
    const doc = parseSvg(pointsToSvg([{ x: at.mapX, y: at.mapY }], { width: 4400, height: 3200, showCoords: true, transform: t }));
    expect(doc.getElementsByTagName('text')[0].textContent).toBe('12.5, -40');
    expect(pointLabel({ x: 1.23456789, y: 0 })).toBe('1.2346, 0');
  });

  it('draws no polyline for a single point and nothing but the frame for none', () => {
    const one = parseSvg(pointsToSvg([{ x: 1, y: 1 }], { width: 10, height: 10, showCoords: true }));
    expect(one.getElementsByTagName('polyline')).toHaveLength(0);
    expect(one.getElementsByTagName('circle')).toHaveLength(1);
    const none = parseSvg(pointsToSvg([], { width: 10, height: 10, showCoords: true }));
    expect(none.documentElement.children).toHaveLength(0);
  });

  it('escapes text', () => {
    expect(escapeXml(`<a & "b" 'c'>`)).toBe('&lt;a &amp; &quot;b&quot; &apos;c&apos;&gt;');
    const doc = parseSvg(pointsToSvg(points, { width: 10, height: 10, showCoords: false, title: 'Map <"x"> & co' }));
    expect(doc.getElementsByTagName('title')[0].textContent).toBe('Map <"x"> & co');
  });

  it('refuses a size that is not positive', () => {
    expect(() => pointsToSvg(points, { width: 0, height: 10, showCoords: false })).toThrow(/positive/);
  });
});
