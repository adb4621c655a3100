import { describe, expect, it } from 'vitest';
import {
  CIRCLE_DEFAULT_RADIUS, COORD_DECIMALS, MIN_DRAG_PX, SHAPE_TYPES, SLOW_MOVE_DIVISOR,
  addPolyPoint, circleRadius, dragShape, finishShape, hitHandle, hitShape, insertPointAtMidpoint,
  isDragTooSmall, markerFieldsFromShape, midpoints, moveDelta, movePoint, normalizeShapeType,
  parseShapes, removePoint, roundCoord, roundPoint, shapeBounds, shapeHandles, shapeVertices,
  shapesStorageKey, startShape, textLabelBounds, translateShape, type DrawnShape, type ShapeType,
} from './shapes';
import { textLabelSize } from './text-label';

const at = (x: number, y: number) => ({ x, y });

/** Press at a, drag to b, release with the given screen travel. */
function draw(type: ShapeType, a: [number, number], b: [number, number], screen: [number, number] = [50, 50]): DrawnShape | null {
  return finishShape(dragShape(startShape(type, 's1', at(...a)), at(...b)), ...screen);
}

describe('shape types and constants', () => {
  it('has the spec types and constants', () => {
    expect(SHAPE_TYPES).toEqual(['pen', 'line', 'arrow', 'rect', 'circle', 'poly', 'text', 'marker']);
    expect([MIN_DRAG_PX, CIRCLE_DEFAULT_RADIUS, SLOW_MOVE_DIVISOR, COORD_DECIMALS]).toEqual([10, 100, 10, 4]);
    expect(shapesStorageKey('customs')).toBe('map:shapes:customs');
  });

  it("reads the spec's spelling 'cirle' as circle and rejects unknown types", () => {
    expect(normalizeShapeType('cirle')).toBe('circle');
    expect(normalizeShapeType(' Rect ')).toBe('rect');
    expect(normalizeShapeType('poly')).toBe('poly');
    expect(normalizeShapeType('square')).toBeNull();
    expect(normalizeShapeType(3)).toBeNull();
    expect(normalizeShapeType(undefined)).toBeNull();
  });

  it('rounds coordinates to 4 decimals', () => {
    expect(roundCoord(1.234567)).toBe(1.2346);
    expect(roundCoord(-0.00001)).toBe(0);
    expect(Object.is(roundCoord(-0.00001), -0)).toBe(false);
    expect(roundPoint({ x: 1.00005, y: 2.99994 })).toEqual({ x: 1.0001, y: 2.9999 });
  });
});

describe('drawing', () => {
  it('starts each type at the press point', () => {
    const p = at(10.123456, 20);
    expect(startShape('rect', 'a', p).geometry).toEqual({ x: 10.1235, y: 20, x1: 10.1235, y1: 20 });
    expect(startShape('line', 'a', p).geometry).toEqual({ x: 10.1235, y: 20, x1: 10.1235, y1: 20 });
    expect(startShape('circle', 'a', p).geometry).toEqual({ x: 10.1235, y: 20, x1: 10.1235, y1: 20, width: 0 });
    expect(startShape('pen', 'a', p).geometry).toEqual({ x: 10.1235, y: 20, points: [[10.1235, 20]] });
    expect(startShape('poly', 'a', p).geometry).toEqual({ x: 10.1235, y: 20, points: [[10.1235, 20]] });
    expect(startShape('text', 'a', p)).toEqual({ id: 'a', type: 'text', geometry: { x: 10.1235, y: 20 }, name: '' });
    expect(startShape('marker', 'a', p).geometry).toEqual({ x: 10.1235, y: 20 });
  });

  it('drag updates the end; pen appends points (skipping repeats)', () => {
    expect(dragShape(startShape('rect', 'a', at(0, 0)), at(5, 6)).geometry).toEqual({ x: 0, y: 0, x1: 5, y1: 6 });
    expect(dragShape(startShape('arrow', 'a', at(0, 0)), at(5, 6)).geometry).toEqual({ x: 0, y: 0, x1: 5, y1: 6 });
    const circle = dragShape(startShape('circle', 'a', at(0, 0)), at(3, 4));
    expect(circle.geometry).toEqual({ x: 0, y: 0, x1: 3, y1: 4, width: 5 });
    let pen = startShape('pen', 'a', at(0, 0));
    pen = dragShape(pen, at(1, 1));
    pen = dragShape(pen, at(1, 1));
    pen = dragShape(pen, at(2, 0));
    expect(pen.geometry.points).toEqual([[0, 0], [1, 1], [2, 0]]);
    expect(dragShape(startShape('text', 'a', at(0, 0)), at(7, 8)).geometry).toEqual({ x: 7, y: 8 });
  });

  it('discards rect, line, arrow and circle when the drag is under 10 px on both axes', () => {
    for (const type of ['rect', 'line', 'arrow', 'circle'] as const) {
      expect(isDragTooSmall(type, 9, 9)).toBe(true);
      expect(isDragTooSmall(type, -9.9, 0)).toBe(true);
      expect(isDragTooSmall(type, 10, 0)).toBe(false);
      expect(isDragTooSmall(type, 0, -10)).toBe(false);
      expect(draw(type, [0, 0], [5, 5], [9, 9])).toBeNull();
      expect(draw(type, [0, 0], [5, 5], [12, 3])).not.toBeNull();
    }
    // A horizontal line is kept.
    expect(draw('line', [0, 0], [50, 0], [50, 0])?.geometry).toEqual({ x: 0, y: 0, x1: 50, y1: 0 });
    for (const type of ['pen', 'poly', 'text', 'marker'] as const) expect(isDragTooSmall(type, 0, 0)).toBe(false);
  });

  it('finishes with rounded coordinates; a rect is normalised, a circle records its radius', () => {
    expect(draw('rect', [10, 10], [2.123456, 3], [-40, -40])?.geometry).toEqual({ x: 2.1235, y: 3, x1: 10, y1: 10 });
    expect(draw('circle', [1, 1], [4, 5])?.geometry).toEqual({ x: 1, y: 1, x1: 4, y1: 5, width: 5 });
    expect(finishShape(startShape('text', 't', at(1, 2)), 0, 0)?.geometry).toEqual({ x: 1, y: 2 });
    expect(finishShape(startShape('marker', 'm', at(1, 2)), 0, 0)).not.toBeNull();
  });

  it('drops a pen stroke that never left its first point', () => {
    expect(finishShape(startShape('pen', 'p', at(0, 0)), 20, 20)).toBeNull();
    expect(draw('pen', [0, 0], [1, 1], [0, 0])?.geometry.points).toEqual([[0, 0], [1, 1]]);
  });
});

describe('poly points', () => {
  const poly = () => addPolyPoint(addPolyPoint(startShape('poly', 'p', at(0, 0)), at(10, 0)), at(10, 10.000049));

  it('adds a point on each press and stays open', () => {
    const p = poly();
    expect(p.geometry.points).toEqual([[0, 0], [10, 0], [10, 10]]);
    expect(p.geometry).toMatchObject({ x: 0, y: 0 });
    // Pressing on the first point again adds it: no auto-close.
    expect(addPolyPoint(p, at(0, 0)).geometry.points).toHaveLength(4);
    expect(addPolyPoint(startShape('line', 'l', at(0, 0)), at(1, 1)).geometry.points).toBeUndefined();
  });

  it('moves a point, rounded, without changing the input', () => {
    const p = poly();
    const moved = movePoint(p, 1, at(5.55555, -1));
    expect(moved.geometry.points).toEqual([[0, 0], [5.5556, -1], [10, 10]]);
    expect(p.geometry.points?.[1]).toEqual([10, 0]);
    expect(movePoint(p, 0, at(1, 2)).geometry).toMatchObject({ x: 1, y: 2 });
    expect(movePoint(p, 7, at(1, 2))).toBe(p);
  });

  it('inserts a midpoint as the next index of its segment', () => {
    const p = insertPointAtMidpoint(poly(), 1, at(12, 5));
    expect(p.geometry.points).toEqual([[0, 0], [10, 0], [12, 5], [10, 10]]);
    expect(insertPointAtMidpoint(poly(), 2, at(0, 0)).geometry.points).toHaveLength(3);
    expect(midpoints([[0, 0], [10, 0], [10, 10]])).toEqual([[5, 0], [10, 5]]);
    expect(midpoints([[1, 1]])).toEqual([]);
  });

  it('removes points down to one for a poly and two for line-like shapes', () => {
    let p = poly();
    p = removePoint(p, 1);
    expect(p.geometry.points).toEqual([[0, 0], [10, 10]]);
    p = removePoint(p, 0);
    expect(p.geometry).toEqual({ x: 10, y: 10, points: [[10, 10]] });
    expect(removePoint(p, 0)).toBe(p);
    const line = draw('line', [0, 0], [20, 0]) as DrawnShape;
    expect(removePoint(line, 0)).toBe(line);
    const rect = draw('rect', [0, 0], [20, 20]) as DrawnShape;
    expect(removePoint(rect, 0)).toBe(rect);
  });

  it('turns a line into a polyline on a midpoint insert and back on a remove', () => {
    const line = draw('arrow', [0, 0], [20, 0]) as DrawnShape;
    const bent = insertPointAtMidpoint(line, 0, at(10, 5));
    expect(bent.geometry).toEqual({ x: 0, y: 0, x1: 20, y1: 0, points: [[0, 0], [10, 5], [20, 0]] });
    expect(shapeVertices(bent)).toHaveLength(3);
    const moved = movePoint(bent, 2, at(30, 0));
    expect(moved.geometry).toMatchObject({ x1: 30, y1: 0 });
    expect(removePoint(bent, 1).geometry).toEqual({ x: 0, y: 0, x1: 20, y1: 0 });
  });
});

describe('handles', () => {
  it('gives vertex shapes point and midpoint handles', () => {
    const line = draw('line', [0, 0], [20, 0]) as DrawnShape;
    expect(shapeHandles(line)).toEqual([
      { kind: 'point', index: 0, x: 0, y: 0 },
      { kind: 'point', index: 1, x: 20, y: 0 },
      { kind: 'mid', index: 0, x: 10, y: 0 },
    ]);
  });

  it('gives rect corners that move with the opposite corner fixed', () => {
    const rect = draw('rect', [0, 0], [10, 20]) as DrawnShape;
    const h = shapeHandles(rect);
    expect(h.map((x) => [x.kind, x.index, x.x, x.y])).toEqual([['point', 0, 0, 0], ['point', 1, 10, 0], ['point', 2, 10, 20], ['point', 3, 0, 20]]);
    expect(movePoint(rect, 1, at(15, -5)).geometry).toEqual({ x: 0, y: -5, x1: 15, y1: 20 });
    expect(movePoint(rect, 3, at(-5, 25)).geometry).toEqual({ x: -5, y: 0, x1: 10, y1: 25 });
    expect(insertPointAtMidpoint(rect, 0, at(1, 1))).toBe(rect);
  });

  it('gives a circle its centre and rim: the centre moves the circle, the rim resizes it', () => {
    const c = draw('circle', [0, 0], [0, 10]) as DrawnShape;
    expect(shapeHandles(c)).toEqual([{ kind: 'point', index: 0, x: 0, y: 0 }, { kind: 'point', index: 1, x: 0, y: 10 }]);
    expect(movePoint(c, 0, at(5, 5)).geometry).toEqual({ x: 5, y: 5, x1: 5, y1: 15, width: 10 });
    expect(circleRadius(movePoint(c, 1, at(3, 4)))).toBe(5);
  });

  it('gives text and marker one point', () => {
    expect(shapeHandles(startShape('text', 't', at(3, 4)))).toEqual([{ kind: 'point', index: 0, x: 3, y: 4 }]);
    expect(movePoint(startShape('marker', 'm', at(3, 4)), 0, at(1, 1)).geometry).toEqual({ x: 1, y: 1 });
  });

  it('hits the nearest handle within the tolerance, points before midpoints', () => {
    const handles = shapeHandles(draw('line', [0, 0], [2, 0]) as DrawnShape);
    expect(hitHandle(handles, at(0.4, 0), 1)).toMatchObject({ kind: 'point', index: 0 });
    expect(hitHandle(handles, at(1, 0.2), 1)).toMatchObject({ kind: 'mid', index: 0 });
    expect(hitHandle(handles, at(0.5, 0), 1)).toMatchObject({ kind: 'point', index: 0 });
    expect(hitHandle(handles, at(10, 10), 1)).toBeNull();
    expect(hitHandle([], at(0, 0), 1)).toBeNull();
  });
});

describe('hit test', () => {
  const rect = draw('rect', [0, 0], [100, 100]) as DrawnShape;
  const line = { ...(draw('line', [0, 50], [100, 50]) as DrawnShape), id: 'line' };
  const circle = { ...(draw('circle', [200, 200], [250, 200]) as DrawnShape), id: 'circle' };
  const text = { ...startShape('text', 'text', at(400, 400)), name: 'Hi' };

  it('hits strokes within the tolerance, topmost (last) first', () => {
    expect(hitShape([rect, line], at(50, 52), 3)).toBe('line');
    expect(hitShape([line, rect], at(0, 50), 3)).toBe('s1');
    expect(hitShape([rect], at(102, 50), 3)).toBe('s1');
    expect(hitShape([circle], at(200, 252), 3)).toBe('circle');
    expect(hitShape([text], at(404, 404), 3)).toBe('text');
  });

  it('does not count the inside of a rect or circle', () => {
    expect(hitShape([rect], at(50, 20), 3)).toBeNull();
    expect(hitShape([circle], at(200, 200), 3)).toBeNull();
    expect(hitShape([], at(0, 0), 3)).toBeNull();
  });

  it('hits a text anywhere on its label (as drawn: a constant screen size), not only at its centre', () => {
    const long = { ...startShape('text', 'long', at(400, 400)), name: 'A much longer label for the exit' };
    const { width, height } = textLabelSize(long.name);
    for (const zoom of [0.5, 1, 4]) {
      const tol = 8 / zoom;
      // "exit", ~60 CSS px right of the centre; the label's far ends; just outside it.
      expect(hitShape([long], at(400 + 60 / zoom, 400), tol)).toBe('long');
      expect(hitShape([long], at(400 + (width / 2) / zoom, 400 + (height / 2) / zoom), tol)).toBe('long');
      expect(hitShape([long], at(400 - (width / 2 + 7) / zoom, 400), tol)).toBe('long');
      expect(hitShape([long], at(400 + (width / 2 + 9) / zoom, 400), tol)).toBeNull();
      expect(hitShape([long], at(400, 400 + (height / 2 + 9) / zoom), tol)).toBeNull();
      // An explicit zoom gives the same answer as the one read from the tolerance.
      expect(hitShape([long], at(400 + 60 / zoom, 400), tol, zoom)).toBe('long');
    }
    // A marker shape is still a point.
    expect(hitShape([{ ...startShape('marker', 'm', at(0, 0)), name: 'A much longer label' }], at(60, 0), 8)).toBeNull();
  });

  it('gives the text label box in map px at a zoom', () => {
    const t = { ...startShape('text', 't', at(100, 50)), name: 'Exit' };
    const { width, height } = textLabelSize('Exit');
    expect(textLabelBounds(t, 2)).toEqual({ minX: 100 - width / 4, minY: 50 - height / 4, maxX: 100 + width / 4, maxY: 50 + height / 4 });
    expect(textLabelBounds(startShape('marker', 'm', at(1, 2)), 2)).toEqual({ minX: 1, minY: 2, maxX: 1, maxY: 2 });
  });

  it('hits pen strokes and a one-point poly', () => {
    const pen = draw('pen', [0, 0], [10, 10]) as DrawnShape;
    expect(hitShape([pen], at(5, 6), 1.5)).toBe('s1');
    expect(hitShape([startShape('poly', 'p', at(3, 3))], at(3.5, 3), 1)).toBe('p');
  });
});

describe('move', () => {
  it('divides a slow move by 10', () => {
    expect(moveDelta(10, -20, false)).toEqual({ dx: 10, dy: -20 });
    expect(moveDelta(10, -20, true)).toEqual({ dx: 1, dy: -2 });
  });

  it('translates every coordinate, rounded, keeping a circle radius', () => {
    const pen = draw('pen', [0, 0], [10, 10]) as DrawnShape;
    expect(translateShape(pen, 0.123456, 1).geometry).toEqual({ x: 0.1235, y: 1, points: [[0.1235, 1], [10.1235, 11]] });
    const c = draw('circle', [0, 0], [0, 10]) as DrawnShape;
    expect(translateShape(c, 5, 5).geometry).toEqual({ x: 5, y: 5, x1: 5, y1: 15, width: 10 });
    expect(translateShape(startShape('marker', 'm', at(1, 1)), 1, 1).geometry).toEqual({ x: 2, y: 2 });
  });

  it('gives bounds', () => {
    expect(shapeBounds(draw('rect', [10, 10], [0, 5]) as DrawnShape)).toEqual({ minX: 0, minY: 5, maxX: 10, maxY: 10 });
    expect(shapeBounds(draw('circle', [0, 0], [0, 10]) as DrawnShape)).toEqual({ minX: -10, minY: -10, maxX: 10, maxY: 10 });
    expect(shapeBounds(draw('pen', [0, 0], [10, -10]) as DrawnShape)).toEqual({ minX: 0, minY: -10, maxX: 10, maxY: 0 });
    expect(shapeBounds(startShape('text', 't', at(3, 4)))).toEqual({ minX: 3, minY: 4, maxX: 3, maxY: 4 });
  });
});

describe('stored shapes', () => {
  it('keeps good shapes, normalises types and reports bad ones', () => {
    const { shapes, issues } = parseShapes([
      { id: 'a', type: 'cirle', geometry: { x: 1, y: 2, width: 30 }, name: 'c' },
      { id: 'b', type: 'rect', geometry: { x: 0, y: 0, x1: 1.234567, y1: 2 } },
      { id: 'c', type: 'hexagon', geometry: { x: 0, y: 0 } },
      { id: 'd', type: 'rect', geometry: { x: 0, y: 0 } },
      { id: 'e', type: 'pen', geometry: { x: 0, y: 0, points: [] } },
      { id: 'f', type: 'line', geometry: { x: 'a', y: 0, x1: 1, y1: 1 } },
      { id: 'a', type: 'text', geometry: { x: 0, y: 0 } },
      null,
      { id: 7, type: 'poly', geometry: { x: 0, y: 0, points: [[0, 0], [1, 1]] }, name: 'n', extra: true },
    ]);
    expect(shapes).toEqual([
      { id: 'a', type: 'circle', geometry: { x: 1, y: 2, width: 30 }, name: 'c' },
      { id: 'b', type: 'rect', geometry: { x: 0, y: 0, x1: 1.2346, y1: 2 }, name: '' },
      { id: '7', type: 'poly', geometry: { x: 0, y: 0, points: [[0, 0], [1, 1]] }, name: 'n' },
    ]);
    expect(issues.map((i) => [i.index, i.id])).toEqual([[2, 'c'], [3, 'd'], [4, 'e'], [5, 'f'], [6, 'a'], [7, undefined]]);
    expect(issues[0].message).toMatch(/hexagon/);
    expect(issues[4].message).toMatch(/repeated/);
  });

  it('reads JSON text, nothing stored, and junk', () => {
    expect(parseShapes(JSON.stringify([{ id: 'x', type: 'marker', geometry: { x: 1, y: 1 }, name: '' }])).shapes).toHaveLength(1);
    expect(parseShapes(null)).toEqual({ shapes: [], issues: [] });
    expect(parseShapes('{oops').issues[0].message).toMatch(/JSON/);
    expect(parseShapes({}).issues[0].message).toMatch(/not a list/);
  });

  it('gives a stored circle with no radius the default radius', () => {
    const [c] = parseShapes([{ id: 'c', type: 'circle', geometry: { x: 0, y: 0 } }]).shapes;
    expect(circleRadius(c)).toBe(CIRCLE_DEFAULT_RADIUS);
    expect(shapeHandles(c)[1]).toMatchObject({ x: 100, y: 0 });
  });

  it('round-trips drawn shapes through JSON', () => {
    const drawn = SHAPE_TYPES.map((type, i) => finishShape(dragShape(startShape(type, `s${i}`, at(1, 2)), at(30, 40)), 50, 50) as DrawnShape);
    expect(parseShapes(JSON.stringify(drawn))).toEqual({ shapes: drawn, issues: [] });
  });
});

describe('marker shapes', () => {
  const defaults = { map: 'customs' as const, category: 'Loot', subCategory: 'Safe', level: 1, extra: 'x', name: 'Safe' };

  it('gives only the known marker fields of a marker-type shape', () => {
    const shape = { ...startShape('marker', 'm', at(10.123456, 20)), name: '  Office safe ' };
    expect(markerFieldsFromShape(shape, defaults)).toEqual({
      map: 'customs', category: 'Loot', subCategory: 'Safe', level: 1, name: 'Office safe', geometry: { x: 10.1235, y: 20 },
    });
    expect(markerFieldsFromShape(startShape('marker', 'm', at(1, 1)), defaults)?.name).toBe('Safe');
  });

  it('saves no other shape type', () => {
    for (const type of SHAPE_TYPES.filter((t) => t !== 'marker')) {
      expect(markerFieldsFromShape(startShape(type, 's', at(0, 0)), defaults)).toBeNull();
    }
  });
});
