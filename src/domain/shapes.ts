/**
 * Drawn shapes (spec §3 "Drawn shape", §4 "Drawing and editing shapes", §5, §9): the admin's
 * drawing aids. Pure functions; every change returns a new shape. All coordinates are map
 * pixels and are rounded to 4 decimals wherever a function stores them.
 *
 * Geometry by type (`x, y` is always the shape's anchor):
 *
 * | type            | geometry                                                                         |
 * |-----------------|----------------------------------------------------------------------------------|
 * | `rect`          | `x, y` one corner, `x1, y1` the opposite corner (normalised to min / max on finish) |
 * | `line`, `arrow` | `x, y` start, `x1, y1` end (the arrow head is at the end). After a midpoint insert the vertices live in `points` (≥ 3) and `x, y` / `x1, y1` mirror the first / last of them. |
 * | `circle`        | `x, y` centre, `x1, y1` the rim point the drag ended at, `width` the radius (kept in step with the rim point). A circle with no radius recorded (neither `width` nor a rim point, e.g. a stored one) has `CIRCLE_DEFAULT_RADIUS`. |
 * | `pen`           | `points` the stroke, `x, y` its first point                                      |
 * | `poly`          | `points` the vertices of an open polyline (never closed automatically), `x, y` the first |
 * | `text`          | `x, y` the text's centre; the text is `name` (drawn a constant size on screen: text-label.ts) |
 * | `marker`        | `x, y` where the marker goes; saved to the server as a marker (`markerFieldsFromShape`) |
 *
 * `width` is used only as the circle's radius: strokes are drawn a constant width on screen.
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema';
import { pickKnownFields, type KnownMarkerFields } from './marker-edit';
import type { Marker } from './marker';
import { round4 } from './transform';
import { textLabelSize } from './text-label';
import { CIRCLE_DEFAULT_RADIUS, SHAPE_TYPES, circleRadius, shapeVertices, type DrawnShape, type Handle, type ShapeGeometry, type ShapePoint, type ShapeType } from './shape-geometry';

export { CIRCLE_DEFAULT_RADIUS, SHAPE_TYPES, circleRadius, shapeVertices };
export type { DrawnShape, Handle, ShapeGeometry, ShapePoint, ShapeType };

export interface ShapeBounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** Minimum drag (screen px) for a rect, line, arrow or circle to be kept (spec §5, §9). */
export const MIN_DRAG_PX = 10;
/** With the slow modifier a move is divided by this (spec §4, §9). */
export const SLOW_MOVE_DIVISOR = 10;
/** Stored and shown coordinates keep this many decimals (spec §5, §9). */
export const COORD_DECIMALS = 4;

/** Local-storage key of a map's drawn shapes (docs/EDITOR.md). */
export function shapesStorageKey(mapId: string): string {
  return `map:shapes:${mapId}`;
}

/** Rounds a coordinate to `COORD_DECIMALS` (4) decimals; −0 becomes 0. */
export function roundCoord(n: number): number {
  return round4(n);
}

export function roundPoint(p: ShapePoint): ShapePoint {
  return { x: roundCoord(p.x), y: roundCoord(p.y) };
}

const roundPair = ([x, y]: readonly [number, number]): [number, number] => [roundCoord(x), roundCoord(y)];

/**
 * A shape type from stored or typed input: trimmed, case-insensitive; the spec's spelling
 * `cirle` (spec §3) is read as `circle`. Anything else is null.
 */
export function normalizeShapeType(input: unknown): ShapeType | null {
  if (typeof input !== 'string') return null;
  const t = input.trim().toLowerCase();
  if (t === 'cirle') return 'circle';
  return (SHAPE_TYPES as readonly string[]).includes(t) ? (t as ShapeType) : null;
}

/** Rect, line, arrow and circle are made by a drag and are discarded when the drag is too small. */
const DRAG_SHAPES: ReadonlySet<ShapeType> = new Set(['rect', 'line', 'arrow', 'circle']);
/** Shapes whose control points are a vertex list (poly-like editing: move, insert, remove). */
const VERTEX_SHAPES: ReadonlySet<ShapeType> = new Set(['pen', 'poly', 'line', 'arrow']);

// ---------------------------------------------------------------------------------------------
// Validation of stored shapes (local storage)

const storedShapeSchema = lazySchema(() => {
  const finite = z.number().finite();
  const pair = z.tuple([finite, finite]);
  return z.object({
    id: z.union([z.string().min(1), z.number().finite().transform(String)]),
    type: z.unknown().transform((t, ctx) => {
      const type = normalizeShapeType(t);
      if (!type) {
        ctx.addIssue({ code: 'custom', message: `unknown shape type ${JSON.stringify(t)}` });
        return z.NEVER;
      }
      return type;
    }),
    geometry: z.object({
      x: finite,
      y: finite,
      x1: finite.optional(),
      y1: finite.optional(),
      points: z.array(pair).optional(),
      width: finite.min(0).optional(),
    }),
    name: z.string().default(''),
  });
});

export interface ShapeIssue {
  /** Position of the entry in the input list (−1: the input itself). */
  index: number;
  id?: string;
  message: string;
}

/** What each type needs beyond `x, y` (null: fine). */
function missingGeometry(type: ShapeType, g: ShapeGeometry): string | null {
  const hasEnd = g.x1 !== undefined && g.y1 !== undefined;
  switch (type) {
    case 'rect':
      return hasEnd ? null : 'geometry: rect needs x1 and y1';
    case 'line':
    case 'arrow':
      return hasEnd || (g.points?.length ?? 0) >= 2 ? null : `geometry: ${type} needs x1 and y1 or at least 2 points`;
    case 'pen':
    case 'poly':
      return (g.points?.length ?? 0) >= 1 ? null : `geometry: ${type} needs points`;
    default:
      return null;
  }
}

/**
 * Validates stored shapes (local storage): a JSON string or an already parsed list. Good
 * entries are kept (type normalised, coordinates rounded, `name` defaulted to ''); bad ones
 * and repeated ids are reported and dropped. Never throws.
 */
export function parseShapes(json: unknown): { shapes: DrawnShape[]; issues: ShapeIssue[] } {
  let input = json;
  if (typeof json === 'string') {
    try {
      input = JSON.parse(json);
    } catch {
      return { shapes: [], issues: [{ index: -1, message: 'shapes are not valid JSON' }] };
    }
  }
  if (input === null || input === undefined) return { shapes: [], issues: [] };
  if (!Array.isArray(input)) return { shapes: [], issues: [{ index: -1, message: 'shapes is not a list' }] };
  const shapes: DrawnShape[] = [];
  const issues: ShapeIssue[] = [];
  const seen = new Set<string>();
  input.forEach((raw, index) => {
    const rawId = (raw as { id?: unknown } | null)?.id;
    const id = typeof rawId === 'string' || typeof rawId === 'number' ? String(rawId) : undefined;
    const result = storedShapeSchema.safeParse(raw);
    if (!result.success) {
      const message = result.error.issues.map((i) => `${i.path.join('.') || 'shape'}: ${i.message}`).join('; ');
      issues.push({ index, id, message });
      return;
    }
    const { type, geometry, name } = result.data;
    const missing = missingGeometry(type, geometry);
    if (missing) {
      issues.push({ index, id, message: missing });
      return;
    }
    if (seen.has(result.data.id)) {
      issues.push({ index, id, message: 'id: repeated' });
      return;
    }
    seen.add(result.data.id);
    shapes.push(roundShape({ id: result.data.id, type, geometry: stripUndefined(geometry), name }));
  });
  return { shapes, issues };
}

function stripUndefined(g: ShapeGeometry): ShapeGeometry {
  const out: ShapeGeometry = { x: g.x, y: g.y };
  if (g.x1 !== undefined) out.x1 = g.x1;
  if (g.y1 !== undefined) out.y1 = g.y1;
  if (g.points !== undefined) out.points = g.points.map(([x, y]) => [x, y]);
  if (g.width !== undefined) out.width = g.width;
  return out;
}

/** The shape with every coordinate (and the circle radius) rounded to 4 decimals. */
export function roundShape(shape: DrawnShape): DrawnShape {
  const g = shape.geometry;
  const geometry: ShapeGeometry = { x: roundCoord(g.x), y: roundCoord(g.y) };
  if (g.x1 !== undefined) geometry.x1 = roundCoord(g.x1);
  if (g.y1 !== undefined) geometry.y1 = roundCoord(g.y1);
  if (g.points !== undefined) geometry.points = g.points.map(roundPair);
  if (g.width !== undefined) geometry.width = roundCoord(g.width);
  return { ...shape, geometry };
}

// ---------------------------------------------------------------------------------------------
// Vertex view of line-like shapes

/** Writes vertices back (rounded): line/arrow with 2 vertices go back to `x, y, x1, y1` only. */
function withVertices(shape: DrawnShape, vertices: readonly [number, number][]): DrawnShape {
  const points = vertices.map(roundPair);
  const [x, y] = points[0];
  if (shape.type === 'line' || shape.type === 'arrow') {
    const [x1, y1] = points[points.length - 1];
    const geometry: ShapeGeometry = { x, y, x1, y1 };
    if (points.length > 2) geometry.points = points;
    return { ...shape, geometry };
  }
  const geometry: ShapeGeometry = { ...shape.geometry, x, y, points };
  return { ...shape, geometry };
}

/** The circle's rim handle point: the recorded rim point, or east of the centre at the radius. */
function circleRim(shape: DrawnShape): ShapePoint {
  const g = shape.geometry;
  const r = circleRadius(shape);
  if (g.x1 !== undefined && g.y1 !== undefined && Math.abs(Math.hypot(g.x1 - g.x, g.y1 - g.y) - r) < 1e-3) {
    return { x: g.x1, y: g.y1 };
  }
  return { x: g.x + r, y: g.y };
}

// ---------------------------------------------------------------------------------------------
// Drawing: press, drag, release

/**
 * A new shape at the press point (rounded): rect, line, arrow and circle start with
 * `x1, y1 = x, y` (a circle of radius 0 until dragged); pen and poly start a points list with
 * that one point; text and marker are the point. Poly takes further points with `addPolyPoint`.
 */
export function startShape(type: ShapeType, id: string, at: ShapePoint): DrawnShape {
  const { x, y } = roundPoint(at);
  switch (type) {
    case 'rect':
    case 'line':
    case 'arrow':
      return { id, type, geometry: { x, y, x1: x, y1: y }, name: '' };
    case 'circle':
      return { id, type, geometry: { x, y, x1: x, y1: y, width: 0 }, name: '' };
    case 'pen':
    case 'poly':
      return { id, type, geometry: { x, y, points: [[x, y]] }, name: '' };
    case 'text':
    case 'marker':
      return { id, type, geometry: { x, y }, name: '' };
  }
}

/**
 * The pointer moved to `to` while drawing: rect / line / arrow move their end, circle its rim
 * (radius = distance to the centre), pen appends the point (a repeat of the last is skipped),
 * poly moves its last point (rubber band), text and marker move to the point.
 */
export function dragShape(shape: DrawnShape, to: ShapePoint): DrawnShape {
  const p = roundPoint(to);
  const g = shape.geometry;
  switch (shape.type) {
    case 'rect':
      return { ...shape, geometry: { ...g, x1: p.x, y1: p.y } };
    case 'line':
    case 'arrow': {
      const v = shapeVertices(shape);
      v[v.length - 1] = [p.x, p.y];
      return withVertices(shape, v);
    }
    case 'circle':
      return { ...shape, geometry: { ...g, x1: p.x, y1: p.y, width: roundCoord(Math.hypot(p.x - g.x, p.y - g.y)) } };
    case 'pen': {
      const v = shapeVertices(shape);
      const [lx, ly] = v[v.length - 1];
      if (lx === p.x && ly === p.y) return shape;
      return withVertices(shape, [...v, [p.x, p.y]]);
    }
    case 'poly': {
      const v = shapeVertices(shape);
      v[v.length - 1] = [p.x, p.y];
      return withVertices(shape, v);
    }
    case 'text':
    case 'marker':
      return { ...shape, geometry: { ...g, x: p.x, y: p.y } };
  }
}

/**
 * The discard rule (spec §4, §5: "release discards rect, arrow, line and circle shapes whose
 * drag is under 10 px on either axis"). Read as: such a shape is discarded when the drag is
 * under `MIN_DRAG_PX` on both axes, i.e. neither |dx| nor |dy| reaches 10 screen px. A drag
 * along one axis only (a horizontal or vertical line) is kept. Other types are never too small.
 */
export function isDragTooSmall(type: ShapeType, screenDx: number, screenDy: number): boolean {
  if (!DRAG_SHAPES.has(type)) return false;
  return Math.abs(screenDx) < MIN_DRAG_PX && Math.abs(screenDy) < MIN_DRAG_PX;
}

/**
 * The release of a drawing gesture (`screenDx, screenDy`: pointer travel from the press, CSS
 * px). Null when the shape is discarded: a rect / line / arrow / circle under the minimum drag
 * (`isDragTooSmall`), or a pen stroke that never left its first point. Otherwise the shape with
 * coordinates rounded to 4 decimals; a rect is normalised so `x, y` is its top-left corner and
 * `x1, y1` its bottom-right; a circle's radius is recorded in `width`.
 */
export function finishShape(shape: DrawnShape, screenDx: number, screenDy: number): DrawnShape | null {
  if (isDragTooSmall(shape.type, screenDx, screenDy)) return null;
  const g = shape.geometry;
  switch (shape.type) {
    case 'rect': {
      const x1 = g.x1 ?? g.x;
      const y1 = g.y1 ?? g.y;
      return roundShape({ ...shape, geometry: { x: Math.min(g.x, x1), y: Math.min(g.y, y1), x1: Math.max(g.x, x1), y1: Math.max(g.y, y1) } });
    }
    case 'circle': {
      const rim = circleRim(shape);
      return roundShape({ ...shape, geometry: { x: g.x, y: g.y, x1: rim.x, y1: rim.y, width: circleRadius(shape) } });
    }
    case 'pen':
      if (shapeVertices(shape).length < 2) return null;
      return roundShape(shape);
    default:
      return roundShape(shape);
  }
}

// ---------------------------------------------------------------------------------------------
// Editing points

/** Poly: a press adds a point at the end (rounded). The shape stays open: no auto-close. */
export function addPolyPoint(shape: DrawnShape, p: ShapePoint): DrawnShape {
  if (shape.type !== 'poly') return shape;
  const q = roundPoint(p);
  return withVertices(shape, [...shapeVertices(shape), [q.x, q.y]]);
}

/**
 * Moves control point `index` (as numbered by `shapeHandles`) to `p`, rounded (spec §5).
 * Vertex shapes: that vertex. Rect: corner 0 (x, y), 1 (x1, y), 2 (x1, y1), 3 (x, y1); the
 * opposite corner stays. Circle: 0 the centre (the rim keeps its offset: same radius), 1 the
 * rim (new radius). Text and marker: 0 the point. An index out of range changes nothing.
 */
export function movePoint(shape: DrawnShape, index: number, p: ShapePoint): DrawnShape {
  const q = roundPoint(p);
  const g = shape.geometry;
  if (VERTEX_SHAPES.has(shape.type)) {
    const v = shapeVertices(shape);
    if (!Number.isInteger(index) || index < 0 || index >= v.length) return shape;
    v[index] = [q.x, q.y];
    return withVertices(shape, v);
  }
  switch (shape.type) {
    case 'rect': {
      const x1 = g.x1 ?? g.x;
      const y1 = g.y1 ?? g.y;
      const corners: Record<number, ShapeGeometry> = {
        0: { x: q.x, y: q.y, x1, y1 },
        1: { x: g.x, y: q.y, x1: q.x, y1 },
        2: { x: g.x, y: g.y, x1: q.x, y1: q.y },
        3: { x: q.x, y: g.y, x1, y1: q.y },
      };
      return corners[index] ? roundShape({ ...shape, geometry: corners[index] }) : shape;
    }
    case 'circle': {
      const r = circleRadius(shape);
      if (index === 0) {
        const rim = circleRim(shape);
        return roundShape({ ...shape, geometry: { x: q.x, y: q.y, x1: q.x + rim.x - g.x, y1: q.y + rim.y - g.y, width: r } });
      }
      if (index === 1) {
        return { ...shape, geometry: { x: g.x, y: g.y, x1: q.x, y1: q.y, width: roundCoord(Math.hypot(q.x - g.x, q.y - g.y)) } };
      }
      return shape;
    }
    default:
      return index === 0 ? { ...shape, geometry: { ...g, x: q.x, y: q.y } } : shape;
  }
}

/**
 * Dragging the midpoint of segment `segmentIndex` (vertices `segmentIndex` → `segmentIndex + 1`)
 * inserts a vertex at `p` (rounded), which becomes index `segmentIndex + 1`. Pen, poly, line and
 * arrow only (a line or arrow becomes a polyline); other types and bad indices: unchanged.
 */
export function insertPointAtMidpoint(shape: DrawnShape, segmentIndex: number, p: ShapePoint): DrawnShape {
  if (!VERTEX_SHAPES.has(shape.type)) return shape;
  const v = shapeVertices(shape);
  if (!Number.isInteger(segmentIndex) || segmentIndex < 0 || segmentIndex >= v.length - 1) return shape;
  const q = roundPoint(p);
  v.splice(segmentIndex + 1, 0, [q.x, q.y]);
  return withVertices(shape, v);
}

/** The fewest vertices a shape keeps when points are removed: a poly keeps 1 (as it starts), pen / line / arrow 2. */
export function minVertices(type: ShapeType): number {
  return type === 'poly' ? 1 : 2;
}

/**
 * Removes vertex `index` (a double-click on a point, spec §4) of a pen, poly, line or arrow.
 * Unchanged when that would leave fewer than `minVertices` (2, or 1 for a poly), for other
 * types (rect corners, circle, text and marker points cannot be removed) and for bad indices.
 */
export function removePoint(shape: DrawnShape, index: number): DrawnShape {
  if (!VERTEX_SHAPES.has(shape.type)) return shape;
  const v = shapeVertices(shape);
  if (!Number.isInteger(index) || index < 0 || index >= v.length || v.length <= minVertices(shape.type)) return shape;
  v.splice(index, 1);
  return withVertices(shape, v);
}

/** Midpoints of consecutive segments (open: n − 1 of them for n points). */
export function midpoints(points: readonly (readonly [number, number])[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    out.push([(points[i][0] + points[i + 1][0]) / 2, (points[i][1] + points[i + 1][1]) / 2]);
  }
  return out;
}

/**
 * The edit handles of a shape: pen / poly / line / arrow: one `point` per vertex and one `mid`
 * per segment (`index` = the segment's start vertex); rect: its 4 corners as points 0–3
 * (see `movePoint`); circle: point 0 the centre, point 1 the rim; text and marker: point 0.
 */
export function shapeHandles(shape: DrawnShape): Handle[] {
  const g = shape.geometry;
  if (VERTEX_SHAPES.has(shape.type)) {
    const v = shapeVertices(shape);
    return [
      ...v.map(([x, y], index): Handle => ({ kind: 'point', index, x, y })),
      ...midpoints(v).map(([x, y], index): Handle => ({ kind: 'mid', index, x, y })),
    ];
  }
  switch (shape.type) {
    case 'rect': {
      const x1 = g.x1 ?? g.x;
      const y1 = g.y1 ?? g.y;
      return [[g.x, g.y], [x1, g.y], [x1, y1], [g.x, y1]].map(([x, y], index): Handle => ({ kind: 'point', index, x, y }));
    }
    case 'circle': {
      const rim = circleRim(shape);
      return [
        { kind: 'point', index: 0, x: g.x, y: g.y },
        { kind: 'point', index: 1, x: rim.x, y: rim.y },
      ];
    }
    default:
      return [{ kind: 'point', index: 0, x: g.x, y: g.y }];
  }
}

// ---------------------------------------------------------------------------------------------
// Hit tests

/** Distance from p to the segment a → b. */
export function distanceToSegment(p: ShapePoint, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - ax) * dx + (p.y - ay) * dy) / len2));
  return Math.hypot(p.x - (ax + t * dx), p.y - (ay + t * dy));
}

/**
 * The handle nearest to `p` within `tolerance` (map px), or null. On equal distance a control
 * point wins over a midpoint (a short segment's midpoint sits close to its ends).
 */
export function hitHandle(handles: readonly Handle[], p: ShapePoint, tolerance: number): Handle | null {
  let best: Handle | null = null;
  let bestD = Infinity;
  for (const h of handles) {
    const d = Math.hypot(h.x - p.x, h.y - p.y);
    if (d > tolerance) continue;
    if (d < bestD || (d === bestD && h.kind === 'point' && best?.kind === 'mid')) {
      best = h;
      bestD = d;
    }
  }
  return best ? { ...best } : null;
}

/** Point shapes (text, marker) are hit within this many tolerances of their point. */
const POINT_HIT_FACTOR = 2;

/**
 * The screen hit tolerance of shapes and handles, CSS px: the engine passes `tolerance` as this
 * many CSS px in map px at the current zoom (src/engine/map-engine.ts `HIT_TOLERANCE_CSS`).
 */
export const SHAPE_HIT_TOLERANCE_PX = 8;

/**
 * A text shape's label as drawn (map px) at `zoom` (CSS px per map px): the label keeps its
 * screen size at any zoom (text-label.ts), centred on the shape's point, so its map size is its
 * screen size / zoom. Other types: their point.
 */
export function textLabelBounds(shape: DrawnShape, zoom: number): ShapeBounds {
  const g = shape.geometry;
  if (shape.type !== 'text' || !(zoom > 0)) return { minX: g.x, minY: g.y, maxX: g.x, maxY: g.y };
  const { width, height } = textLabelSize(shape.name);
  const hw = width / 2 / zoom;
  const hh = height / 2 / zoom;
  return { minX: g.x - hw, minY: g.y - hh, maxX: g.x + hw, maxY: g.y + hh };
}

/**
 * Whether `p` hits the shape: within `tolerance` (map px) of its stroke. Rect and circle count
 * only along their outline, never inside: a shape drawn around markers must not take their
 * clicks. A marker shape counts within 2 × tolerance of its point; a text shape anywhere on its
 * label (`textLabelBounds`) or within `tolerance` of it: the label is what the admin sees and
 * grabs, and its selection frame surrounds the same box.
 *
 * `zoom` (CSS px per map px) sizes a text's label; by default it is read from the tolerance,
 * which the engine passes as `SHAPE_HIT_TOLERANCE_PX` screen px.
 */
export function shapeContains(shape: DrawnShape, p: ShapePoint, tolerance: number, zoom = SHAPE_HIT_TOLERANCE_PX / tolerance): boolean {
  const g = shape.geometry;
  if (VERTEX_SHAPES.has(shape.type)) {
    const v = shapeVertices(shape);
    if (v.length === 1) return Math.hypot(v[0][0] - p.x, v[0][1] - p.y) <= tolerance;
    for (let i = 0; i + 1 < v.length; i++) {
      if (distanceToSegment(p, v[i][0], v[i][1], v[i + 1][0], v[i + 1][1]) <= tolerance) return true;
    }
    return false;
  }
  switch (shape.type) {
    case 'rect': {
      const x1 = g.x1 ?? g.x;
      const y1 = g.y1 ?? g.y;
      const edges: [number, number, number, number][] = [[g.x, g.y, x1, g.y], [x1, g.y, x1, y1], [x1, y1, g.x, y1], [g.x, y1, g.x, g.y]];
      return edges.some(([ax, ay, bx, by]) => distanceToSegment(p, ax, ay, bx, by) <= tolerance);
    }
    case 'circle':
      return Math.abs(Math.hypot(p.x - g.x, p.y - g.y) - circleRadius(shape)) <= tolerance;
    case 'text': {
      const b = textLabelBounds(shape, zoom);
      const onLabel = p.x >= b.minX - tolerance && p.x <= b.maxX + tolerance && p.y >= b.minY - tolerance && p.y <= b.maxY + tolerance;
      return onLabel || Math.hypot(p.x - g.x, p.y - g.y) <= tolerance * POINT_HIT_FACTOR;
    }
    default:
      return Math.hypot(p.x - g.x, p.y - g.y) <= tolerance * POINT_HIT_FACTOR;
  }
}

/** Id of the topmost shape (the last in the list is drawn on top) that `p` hits, or null (see `shapeContains`). */
export function hitShape(shapes: readonly DrawnShape[], p: ShapePoint, tolerance: number, zoom = SHAPE_HIT_TOLERANCE_PX / tolerance): string | null {
  for (let i = shapes.length - 1; i >= 0; i--) {
    if (shapeContains(shapes[i], p, tolerance, zoom)) return shapes[i].id;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Move

/** A move step (map px): divided by `SLOW_MOVE_DIVISOR` (10) while the slow modifier is held. */
export function moveDelta(dx: number, dy: number, slow: boolean): { dx: number; dy: number } {
  return slow ? { dx: dx / SLOW_MOVE_DIVISOR, dy: dy / SLOW_MOVE_DIVISOR } : { dx, dy };
}

/** The shape moved by (dx, dy) map px, rounded. The circle's radius is unchanged. */
export function translateShape(shape: DrawnShape, dx: number, dy: number): DrawnShape {
  const g = shape.geometry;
  const geometry: ShapeGeometry = { ...g, x: g.x + dx, y: g.y + dy };
  if (g.x1 !== undefined) geometry.x1 = g.x1 + dx;
  if (g.y1 !== undefined) geometry.y1 = g.y1 + dy;
  if (g.points !== undefined) geometry.points = g.points.map(([x, y]) => [x + dx, y + dy]);
  return roundShape({ ...shape, geometry });
}

/** The shape's bounding box (map px); a circle's includes its radius, text and marker are a point. */
export function shapeBounds(shape: DrawnShape): ShapeBounds {
  const g = shape.geometry;
  if (shape.type === 'circle') {
    const r = circleRadius(shape);
    return { minX: g.x - r, minY: g.y - r, maxX: g.x + r, maxY: g.y + r };
  }
  const pts: [number, number][] = VERTEX_SHAPES.has(shape.type)
    ? shapeVertices(shape)
    : shape.type === 'rect'
      ? [[g.x, g.y], [g.x1 ?? g.x, g.y1 ?? g.y]]
      : [[g.x, g.y]];
  const xs = pts.map((q) => q[0]);
  const ys = pts.map((q) => q[1]);
  return { minX: Math.min(...xs), minY: Math.min(...ys), maxX: Math.max(...xs), maxY: Math.max(...ys) };
}

// ---------------------------------------------------------------------------------------------
// Marker shapes

/** What a marker-type shape does not carry: at least where it goes and what kind it is. */
export type MarkerShapeDefaults = Pick<Marker, 'map' | 'category' | 'subCategory' | 'level'> & Partial<Marker>;

/**
 * The marker a marker-type shape stands for (spec §5: only marker-type shapes are saved to
 * the server, and only known marker fields are sent): the known fields of `defaults`, with
 * the shape's point (rounded) as `geometry` and its name (trimmed) when it has one. Unknown
 * fields of `defaults` are left out. Other shape types: null (never saved).
 */
export function markerFieldsFromShape(shape: DrawnShape, defaults: MarkerShapeDefaults): KnownMarkerFields | null {
  if (shape.type !== 'marker') return null;
  const name = shape.name.trim();
  return {
    ...pickKnownFields(defaults),
    geometry: roundPoint(shape.geometry),
    ...(name ? { name } : {}),
  };
}
