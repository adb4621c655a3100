/**
 * "What is under the pointer": an rbush of the placed markers' boxes in zoomed-map space
 * (layout positions), rebuilt lazily (only when a query comes after the placement changed).
 * A pan moves only the layout offset, so the tree stays valid while the camera translates.
 * An edit of one marker changes one box: `apply` removes and inserts just those.
 */
import RBush from 'rbush';
import { iconBox, pickHit, type ScreenBox } from './kernels/hit';

export interface DrawnMarkers {
  drawn: Uint32Array;
  drawnCount: number;
  /** Layout position of each placed marker: screen = layout + offset. */
  layoutX: Float32Array;
  layoutY: Float32Array;
  /**
   * Draw order of each placed marker, increasing with its position in `drawn` (a higher one is
   * drawn on top and wins a tie). Stable under edits, unlike the position. Default: the position.
   */
  drawKeys?: Float64Array;
  offsetX: number;
  offsetY: number;
  iconCss: number;
}

/** Placed markers that an edit took away or put in (added: the layout position and draw key). */
export interface PlacedChange {
  removed: number[];
  added: { index: number; layoutX: number; layoutY: number; order: number }[];
}

export class HitIndex {
  private tree = new RBush<ScreenBox>();
  /** Box of each marker in the tree, by marker index (for removal). */
  private boxes = new Map<number, ScreenBox>();
  private stale = true;
  /** Full rebuilds so far (for tests). */
  rebuilds = 0;

  constructor(private readonly source: DrawnMarkers) {}

  /** The placed set or its layout positions changed. */
  invalidate(): void {
    this.stale = true;
  }

  /** A few placed markers changed (an edit): updates their boxes only. */
  apply(change: PlacedChange): void {
    if (this.stale) return; // the next query rebuilds from the placed set anyway
    for (const index of change.removed) this.removeBox(index);
    const size = this.boxSize();
    for (const a of change.added) {
      this.removeBox(a.index);
      const box = iconBox(a.layoutX, a.layoutY, size, a.index, a.order);
      this.tree.insert(box);
      this.boxes.set(a.index, box);
    }
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

  /** The hit box is a little smaller than the icon's square (round badges). */
  private boxSize(): number {
    return this.source.iconCss * 0.85;
  }

  private removeBox(index: number): void {
    const box = this.boxes.get(index);
    if (!box) return;
    this.tree.remove(box);
    this.boxes.delete(index);
  }

  private rebuild(): void {
    const s = this.source;
    const boxes: ScreenBox[] = new Array(s.drawnCount);
    const size = this.boxSize();
    this.boxes = new Map();
    for (let k = 0; k < s.drawnCount; k++) {
      const box = iconBox(s.layoutX[k], s.layoutY[k], size, s.drawn[k], s.drawKeys ? s.drawKeys[k] : k);
      boxes[k] = box;
      this.boxes.set(s.drawn[k], box);
    }
    this.tree = new RBush<ScreenBox>().load(boxes);
    this.stale = false;
    this.rebuilds++;
  }
}
