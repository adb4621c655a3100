/**
 * "What is under the pointer": an rbush of the placed markers' boxes in zoomed-map space
 * (layout positions), rebuilt lazily (only when a query comes after the placement changed).
 * A pan moves only the layout offset, so the tree stays valid while the camera translates.
 */
import RBush from 'rbush';
import { iconBox, pickHit, type ScreenBox } from './kernels/hit';

export interface DrawnMarkers {
  drawn: Uint32Array;
  drawnCount: number;
  /** Layout position of each placed marker: screen = layout + offset. */
  layoutX: Float32Array;
  layoutY: Float32Array;
  offsetX: number;
  offsetY: number;
  iconCss: number;
}

export class HitIndex {
  private tree = new RBush<ScreenBox>();
  private stale = true;

  constructor(private readonly source: DrawnMarkers) {}

  /** The placed set or its layout positions changed. */
  invalidate(): void {
    this.stale = true;
  }

  /** Marker index under a screen point (nearest centre, top-most on a tie), or -1. */
  hit(screenX: number, screenY: number): number {
    if (!Number.isFinite(screenX) || !Number.isFinite(screenY)) return -1;
    if (this.stale) this.rebuild();
    const x = screenX - this.source.offsetX;
    const y = screenY - this.source.offsetY;
    const candidates = this.tree.search({ minX: x, minY: y, maxX: x, maxY: y });
    return pickHit(candidates, x, y);
  }

  private rebuild(): void {
    const s = this.source;
    const boxes: ScreenBox[] = new Array(s.drawnCount);
    // The hit box is a little smaller than the icon's square (round badges).
    const size = s.iconCss * 0.85;
    for (let k = 0; k < s.drawnCount; k++) boxes[k] = iconBox(s.layoutX[k], s.layoutY[k], size, s.drawn[k], k);
    this.tree = new RBush<ScreenBox>().load(boxes);
    this.stale = false;
  }
}
