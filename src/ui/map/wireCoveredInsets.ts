/**
 * Tells the engine how far the page covers the map's canvas (top bar, side panels, admin dock),
 * so its camera lets the map's edges be panned out from under them (src/domain/keep-in-view.ts
 * `coveredInsets`). Measured after each layout that may have changed it, never per frame. On a
 * map page, what the page framed for the visitor (a link's marker or position) is kept in the
 * visible part as the covers become known and change (keepFramed.ts).
 */
import type { MapEngineApi } from '../../engine/types';
import { coveredInsets, type CanvasArea, type ScreenInsets } from '../../domain/keep-in-view';
import { measureCanvasArea, watchCanvasArea } from './canvasArea';
import { isFramingEngine, keepFramed, type FramingEngine } from './keepFramed';

const UNCOVERED: ScreenInsets = { top: 0, right: 0, bottom: 0, left: 0 };

export interface CoveredInsetsOptions {
  /** The canvas and its covers now (default: measured in the page). */
  measure?: () => CanvasArea | null;
  /** Calls back when they may have changed; returns the stop (default: `watchCanvasArea`). */
  watch?: (onChange: () => void) => () => void;
  /**
   * The insets for the measured canvas (default: `coveredInsets`, how far the page covers it;
   * `followInsets` for a view that follows the player, whose followed point may be any of the map's).
   */
  insets?: (area: CanvasArea) => ScreenInsets;
  /**
   * Measure once at once, too, not only after the page's next layout (the stream overlay: its
   * first view, centred on the player, must not be clamped with no insets). Default false: a
   * map page reads no layout while it wires, unless a link's target waits to be framed with the
   * covers (keepFramed.ts): then at once, so it is framed right before the first frame.
   */
  immediate?: boolean;
}

/** Keeps the engine's insets up to date with the page; returns the function that stops it. */
export function wireCoveredInsets(
  engine: Pick<MapEngineApi, 'setCoveredInsets'> & Partial<FramingEngine>,
  { measure = () => measureCanvasArea(), watch = watchCanvasArea, insets = coveredInsets, immediate = false }: CoveredInsetsOptions = {},
): () => void {
  // Only a map page's own covers (not the stream overlay's follow insets) frame its targets.
  const framing = insets === coveredInsets && isFramingEngine(engine) ? keepFramed(engine) : null;
  const update = () => {
    const area = measure();
    const next = area ? insets(area) : UNCOVERED;
    if (framing) framing.coversChanged(area, next);
    else engine.setCoveredInsets?.(next);
  };
  if (immediate || framing?.hasTarget()) update();
  const stop = watch(update);
  return () => {
    stop();
    framing?.dispose();
  };
}
