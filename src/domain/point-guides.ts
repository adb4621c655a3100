/**
 * The admin's saved points as the map draws them (spec §2 point history: Toggle points, Toggle
 * coords): the same picture as the downloaded SVG (points.ts `pointsToSvg`): a path through the
 * points in order, a dot at each, and with the coordinates shown a label up and to the right of
 * its dot, so the point itself stays in sight. Pure: the wiring hands the shapes to the engine
 * as guides (drawn under the shapes, never hit).
 *
 * The engine centres a text shape on its point (engine/shape-layer.ts), in screen pixels at any
 * zoom: a label's point is its dot's plus an offset in screen pixels (half its width, estimated
 * from its characters), turned into map pixels at the camera's zoom. So the guides follow the zoom.
 */
import { pointLabel, type SavedPoint } from './points';
import type { DrawnShape } from './shapes';
import type { MapTransform } from './transform';

/** The label's gap from its point, right and up (CSS px), like the SVG's (its dot's radius + 2). */
export const POINT_LABEL_GAP_PX = 6;
/** The engine's label text size (CSS px; engine/shape-layer.ts TEXT_SIZE_PX). */
const LABEL_SIZE_PX = 14;
/** The label's dark outline (CSS px), half of it on each side. */
const LABEL_OUTLINE_PX = 3;

/**
 * A coordinate label's width as drawn (CSS px, outline included), estimated: digits are about
 * 0.57 em in common sans-serif faces, the point, comma, space and minus about 0.3 em.
 */
export function pointLabelWidth(label: string): number {
  let em = 0;
  for (const ch of label) em += /[\s.,:-]/.test(ch) ? 0.3 : 0.57;
  return em * LABEL_SIZE_PX + LABEL_OUTLINE_PX;
}

export interface PointGuideOptions {
  /** Toggle points: nothing is drawn while off. */
  shown: boolean;
  /** Toggle coords: each point's coordinates beside it. */
  coordsShown: boolean;
  /** The map's transform: labels show game coordinates (as the SVG's). */
  transform?: MapTransform;
  /** The camera's zoom (CSS px per map px): the labels' offset is in screen pixels. */
  zoom: number;
}

/** Where a label's centre goes for a point: right of and above it by the gap, its left end at the gap. */
export function pointLabelCentre(p: SavedPoint, label: string, zoom: number): { x: number; y: number } {
  const z = zoom > 0 && Number.isFinite(zoom) ? zoom : 1;
  const dx = POINT_LABEL_GAP_PX + pointLabelWidth(label) / 2;
  const dy = POINT_LABEL_GAP_PX + LABEL_SIZE_PX / 2;
  return { x: p.x + dx / z, y: p.y - dy / z };
}

/**
 * The guides for the saved points: `points:path` (two points or more), `points:dot:{i}` (a
 * one-point polygon: a dot) and, with the coordinates shown, `points:label:{i}`.
 */
export function pointGuideShapes(list: readonly SavedPoint[], options: PointGuideOptions): DrawnShape[] {
  if (!options.shown || list.length === 0) return [];
  const guides: DrawnShape[] = [];
  if (list.length > 1) {
    guides.push({ id: 'points:path', type: 'pen', geometry: { x: list[0].x, y: list[0].y, points: list.map((p) => [p.x, p.y] as [number, number]) }, name: '' });
  }
  list.forEach((p, i) => guides.push({ id: `points:dot:${i}`, type: 'poly', geometry: { x: p.x, y: p.y, points: [[p.x, p.y]] }, name: '' }));
  if (options.coordsShown) {
    list.forEach((p, i) => {
      const label = pointLabel(p, options.transform);
      guides.push({ id: `points:label:${i}`, type: 'text', geometry: pointLabelCentre(p, label, options.zoom), name: label });
    });
  }
  return guides;
}
