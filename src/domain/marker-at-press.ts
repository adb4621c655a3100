/**
 * Which marker a press in move mode grabbed, as the page can tell it from outside the engine
 * (the move tool keeps the uid to itself until the marker is let go): of the markers drawn
 * now, the one whose centre is nearest the press, within `reachPx` CSS px. The engine's hit test
 * picks the nearest centre of the icons under the point too (engine/kernels/hit.ts `pickHit`), so
 * for a press the tool took as a marker drag this names the same marker; the wiring still puts
 * right what the tool reports when the marker is let go. Pure.
 */
export interface PressableMarker {
  uid: string;
  x: number;
  y: number;
  /** Drawn now (in the viewport, on a shown level). */
  visible: boolean;
}

/** Icons are at most this far (CSS px) from their centre at the largest marker scale. */
export const MARKER_REACH_PX = 40;

export function markerAtPress(
  markers: readonly PressableMarker[],
  toScreen: (mapX: number, mapY: number) => { x: number; y: number },
  press: { screenX: number; screenY: number },
  reachPx = MARKER_REACH_PX,
): string | null {
  let best: string | null = null;
  let bestDist = reachPx * reachPx;
  for (const m of markers) {
    if (!m.visible) continue;
    const s = toScreen(m.x, m.y);
    const d = (s.x - press.screenX) ** 2 + (s.y - press.screenY) ** 2;
    if (d <= bestDist) {
      best = m.uid;
      bestDist = d;
    }
  }
  return best;
}
