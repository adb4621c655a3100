/**
 * "What is under the pointer": an rbush of the drawn markers' screen boxes, rebuilt lazily
 * (only when a query comes after the drawn set or the camera changed).
 */
import RBush from 'rbush';
import { iconBox, pickHit, type ScreenBox } from './kernels/hit';

export interface DrawnMarkers {
  drawn: Uint32Array;
  drawnCount: number;
  screenX: Float32Array;
  screenY: Float32Array;
  iconCss: number;
}

export class HitIndex {
  private tree = new RBush<ScreenBox>();
  private stale = true;

  constructor(private readonly source: DrawnMarkers) {}

  /** The drawn set or its screen positions changed. */
  invalidate(): void {
    this.stale = true;
  }

  /** Marker index under a screen point (nearest centre, top-most on a tie), or -1. */
  hit(screenX: number, screenY: number): number {
    if (!Number.isFinite(screenX) || !Number.isFinite(screenY)) return -1;
    if (this.stale) this.rebuild();
    const candidates = this.tree.search({ minX: screenX, minY: screenY, maxX: screenX, maxY: screenY });
    return pickHit(candidates, screenX, screenY);
  }

  private rebuild(): void {
    const s = this.source;
    const boxes: ScreenBox[] = new Array(s.drawnCount);
    // The hit box is a little smaller than the icon's square (round badges).
    const size = s.iconCss * 0.85;
    for (let k = 0; k < s.drawnCount; k++) boxes[k] = iconBox(s.screenX[k], s.screenY[k], size, s.drawn[k], k);
    this.tree = new RBush<ScreenBox>().load(boxes);
    this.stale = false;
  }
}
