/**
 * Saved points (spec §3 "Saved points", §2 point-history buttons, §9): the admin's recorded
 * list of map points, kept in browser storage per map under `${mapId}points`, shown as a path,
 * and exported as a standalone SVG. Pure functions; coordinates are map pixels rounded to 4
 * decimals.
 */
import { mapToGame, round4, type MapTransform } from './transform';

export interface SavedPoint {
  x: number;
  y: number;
}

/** Local-storage key of a map's saved points: the map name with the suffix `points` (spec §9). */
export function pointsStorageKey(mapId: string): string {
  return `${mapId}points`;
}

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Reads stored points: JSON text or an already parsed list. Entries that are not
 * `{ x, y }` with finite numbers are dropped; the rest are rounded to 4 decimals (extra
 * fields dropped). Anything that is not a list reads as no points. Never throws.
 */
export function parsePoints(json: unknown): SavedPoint[] {
  let input = json;
  if (typeof json === 'string') {
    try {
      input = JSON.parse(json);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(input)) return [];
  const out: SavedPoint[] = [];
  for (const raw of input) {
    const p = raw as { x?: unknown; y?: unknown } | null;
    if (p && typeof p === 'object' && isFiniteNumber(p.x) && isFiniteNumber(p.y)) out.push({ x: round4(p.x), y: round4(p.y) });
  }
  return out;
}

/** The list with `p` appended, rounded to 4 decimals; a non-finite point changes nothing. */
export function addPoint(points: readonly SavedPoint[], p: SavedPoint): SavedPoint[] {
  if (!isFiniteNumber(p.x) || !isFiniteNumber(p.y)) return [...points];
  return [...points, { x: round4(p.x), y: round4(p.y) }];
}

/** Text for the storage (the inverse of `parsePoints`). */
export function serializePoints(points: readonly SavedPoint[]): string {
  return JSON.stringify(points.map((p) => ({ x: p.x, y: p.y })));
}

export interface PointsSvgOptions {
  /** The SVG's size: the map's size in map pixels, so the drawing lines up with the map. */
  width: number;
  height: number;
  /** Label each point with its coordinates ("Toggle coords"). */
  showCoords: boolean;
  /** With the map's transform, labels show game coordinates (x, z); without, map pixels. */
  transform?: MapTransform;
  /** A title (e.g. the map's name), written escaped. */
  title?: string;
}

/** Escapes text for XML character data and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

/** A number as SVG text: rounded to 4 decimals, no exponent, no −0. */
function num(n: number): string {
  const r = round4(n);
  return Number.isInteger(r) ? String(r) : r.toFixed(4).replace(/0+$/, '');
}

/** The label of a point: its game `x, z` with a transform, else its map `x, y`, 4 decimals at most. */
export function pointLabel(p: SavedPoint, transform?: MapTransform): string {
  if (!transform) return `${num(p.x)}, ${num(p.y)}`;
  const g = mapToGame(transform, { mapX: p.x, mapY: p.y });
  return `${num(g.gameX)}, ${num(g.gameZ)}`;
}

const STROKE = '#ff3b30';
const DOT_RADIUS = 4;

/**
 * A standalone SVG of the points (the "download SVG" button): a polyline through them in
 * order, a dot at each, and with `showCoords` a label beside each dot. The viewBox is the map
 * in map pixels (0 0 width height).
 */
export function pointsToSvg(points: readonly SavedPoint[], options: PointsSvgOptions): string {
  const { width, height, showCoords, transform, title } = options;
  if (!(width > 0) || !(height > 0)) throw new Error(`SVG size must be positive, got ${width}×${height}`);
  const lines: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}" height="${num(height)}" viewBox="0 0 ${num(width)} ${num(height)}">`,
  ];
  if (title) lines.push(`  <title>${escapeXml(title)}</title>`);
  if (points.length > 1) {
    const list = points.map((p) => `${num(p.x)},${num(p.y)}`).join(' ');
    lines.push(`  <polyline points="${list}" fill="none" stroke="${STROKE}" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"/>`);
  }
  if (points.length > 0) {
    lines.push(`  <g fill="${STROKE}" stroke="#ffffff" stroke-width="1">`);
    for (const p of points) lines.push(`    <circle cx="${num(p.x)}" cy="${num(p.y)}" r="${DOT_RADIUS}"/>`);
    lines.push('  </g>');
  }
  if (showCoords && points.length > 0) {
    lines.push('  <g font-family="sans-serif" font-size="12" fill="#ffffff" stroke="#000000" stroke-width="3" paint-order="stroke">');
    for (const p of points) {
      lines.push(`    <text x="${num(p.x + DOT_RADIUS + 2)}" y="${num(p.y - DOT_RADIUS - 2)}">${escapeXml(pointLabel(p, transform))}</text>`);
    }
    lines.push('  </g>');
  }
  lines.push('</svg>', '');
  return lines.join('\n');
}
