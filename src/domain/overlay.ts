/**
 * The stream overlay (issue 10): `/map/{map}?overlay=1` is the map on a see-through page, with
 * nothing but the map, its markers and the player (for OBS's Browser source). Pure rules of its
 * query parameters:
 *
 *   overlay=1     the overlay (also `true`, `yes`, `on`); absent, `0` or `false`: the normal page
 *   zoom=N        the camera zoom kept while following the player (the map's limits apply)
 *   scale=S       the size of the labels, 1 = normal (default 1.5)
 */
import type { MapDefinition } from './maps';

export const OVERLAY_PARAM = 'overlay';
export const OVERLAY_ZOOM_PARAM = 'zoom';
export const OVERLAY_SCALE_PARAM = 'scale';

/** The overlay's label size when `scale` is not given: readable on a stream. */
export const DEFAULT_OVERLAY_SCALE = 1.5;
export const MIN_OVERLAY_SCALE = 0.5;
export const MAX_OVERLAY_SCALE = 4;
/** The overlay's zoom when `zoom` is not given (at least the map's start zoom). */
export const DEFAULT_OVERLAY_ZOOM = 1.5;
/** Zooms outside this range are typos, not wishes: the default is used instead. */
const ZOOM_RANGE: [number, number] = [0.01, 100];

export interface OverlayParams {
  /** The zoom asked for, or null for the default (overlayZoom). */
  zoom: number | null;
  /** The label size (clamped to MIN…MAX_OVERLAY_SCALE). */
  scale: number;
}

const YES = new Set(['1', 'true', 'yes', 'on']);

function number(text: string | null): number | null {
  if (text === null || text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** The class on <html> while the stream overlay shows: every background see-through (src/ui/overlay/overlay.css). */
export const OVERLAY_DOCUMENT_CLASS = 'stream-overlay';

/**
 * The overlay's parameters from a query string (`?overlay=1&zoom=2`, with or without the `?`),
 * or null when the page is not the overlay. A zoom that is not a positive number is ignored
 * (the default is used); a scale is clamped to its range, and ignored when not a number.
 */
export function parseOverlayParams(search: string): OverlayParams | null {
  const params = new URLSearchParams(search);
  const flag = params.get(OVERLAY_PARAM);
  if (flag === null || !YES.has(flag.trim().toLowerCase())) return null;
  const zoom = number(params.get(OVERLAY_ZOOM_PARAM));
  const scale = number(params.get(OVERLAY_SCALE_PARAM));
  return {
    zoom: zoom !== null && zoom >= ZOOM_RANGE[0] && zoom <= ZOOM_RANGE[1] ? zoom : null,
    scale: scale === null || scale <= 0 ? DEFAULT_OVERLAY_SCALE : Math.min(MAX_OVERLAY_SCALE, Math.max(MIN_OVERLAY_SCALE, scale)),
  };
}

/** The zoom the overlay keeps on `map`: the one asked for, else the default, within the map's limits. */
export function overlayZoom(params: OverlayParams, map: Pick<MapDefinition, 'startZoom' | 'minZoom' | 'maxZoom'>): number {
  const wanted = params.zoom ?? Math.max(map.startZoom, DEFAULT_OVERLAY_ZOOM);
  return Math.min(map.maxZoom, Math.max(map.minZoom, wanted));
}

/**
 * The query of the overlay's own parameters (`?overlay=1&zoom=2&scale=1.5`), to keep it an
 * overlay when the page goes to another map; '' when `search` is not the overlay.
 */
export function overlaySearch(search: string): string {
  const params = parseOverlayParams(search);
  if (!params) return '';
  const out = new URLSearchParams({ [OVERLAY_PARAM]: '1' });
  if (params.zoom !== null) out.set(OVERLAY_ZOOM_PARAM, String(params.zoom));
  const given = new URLSearchParams(search).get(OVERLAY_SCALE_PARAM);
  if (given !== null && number(given) !== null) out.set(OVERLAY_SCALE_PARAM, String(params.scale));
  return `?${out.toString()}`;
}
