/**
 * A MarkerDrawList for tests: keeps the sprites it was told to draw, as they stand after the
 * last commit, so a test can compare what an edited placement draws with a fresh one's.
 */
import type { MarkerDrawList, MarkerSprite } from '../marker-draw-list';

export class RecordingDrawList implements MarkerDrawList {
  /** The sprites as of the last commit, bottom first. */
  committed: MarkerSprite[] = [];
  offset = { x: 0, y: 0 };
  commits = 0;
  /** Calls since the last commit (a list with edits not yet committed draws the old ones). */
  pending = 0;
  private working: MarkerSprite[] = [];

  setOffset(x: number, y: number): void {
    this.offset = { x, y };
  }

  replace(count: number, write: (k: number, out: MarkerSprite) => void): void {
    this.working = Array.from({ length: count }, (_, k) => {
      const out: MarkerSprite = { icon: 0, layoutX: 0, layoutY: 0, size: 0, alpha: 0 };
      write(k, out);
      return out;
    });
    this.pending++;
  }

  insert(k: number, sprite: MarkerSprite): void {
    if (k < 0 || k > this.working.length) throw new RangeError(`insert at ${k} of ${this.working.length}`);
    this.working.splice(k, 0, { ...sprite });
    this.pending++;
  }

  remove(k: number): void {
    if (k < 0 || k >= this.working.length) throw new RangeError(`remove at ${k} of ${this.working.length}`);
    this.working.splice(k, 1);
    this.pending++;
  }

  commit(): void {
    this.committed = this.working.map((s) => ({ ...s }));
    this.commits++;
    this.pending = 0;
  }

  dispose(): void {
    this.working = [];
    this.committed = [];
  }
}
