/**
 * What a drawn shape is and the geometry that drawing it needs (its vertices, a circle's
 * radius), without the rules of editing and storing it (shapes.ts, which re-exports these): the
 * render worker draws shapes and loads no validation library.
 */
export const SHAPE_TYPES = ['pen', 'line', 'arrow', 'rect', 'circle', 'poly', 'text', 'marker'] as const;
export type ShapeType = (typeof SHAPE_TYPES)[number];

export interface ShapeGeometry {
  x: number;
  y: number;
  x1?: number;
  y1?: number;
  points?: [number, number][];
  width?: number;
}

export interface DrawnShape {
  id: string;
  type: ShapeType;
  geometry: ShapeGeometry;
  name: string;
}

/** A map point (map pixels). */
export interface ShapePoint {
  x: number;
  y: number;
}

/** An edit handle of a shape (map pixels): a control point, or the midpoint of a segment. */
export interface Handle {
  kind: 'point' | 'mid';
  /** `point`: the control point's index (see `shapeHandles`); `mid`: the segment's index (its start vertex). */
  index: number;
  x: number;
  y: number;
}

/** Radius (map px) of a circle that has none recorded (spec §9). */
export const CIRCLE_DEFAULT_RADIUS = 100;

/** The control vertices of a pen, poly, line or arrow (a copy); [] for other types. */
export function shapeVertices(shape: DrawnShape): [number, number][] {
  const g = shape.geometry;
  switch (shape.type) {
    case 'pen':
    case 'poly':
      return (g.points ?? [[g.x, g.y]]).map(([x, y]) => [x, y]);
    case 'line':
    case 'arrow':
      if (g.points && g.points.length >= 2) return g.points.map(([x, y]) => [x, y]);
      return [[g.x, g.y], [g.x1 ?? g.x, g.y1 ?? g.y]];
    default:
      return [];
  }
}

/** Radius of a circle: `width` when recorded, else the distance to the rim point, else `CIRCLE_DEFAULT_RADIUS`. */
export function circleRadius(shape: DrawnShape): number {
  const g = shape.geometry;
  if (g.width !== undefined && Number.isFinite(g.width) && g.width >= 0) return g.width;
  if (g.x1 !== undefined && g.y1 !== undefined) return Math.hypot(g.x1 - g.x, g.y1 - g.y);
  return CIRCLE_DEFAULT_RADIUS;
}
