/** Ring buffer of per-frame timings (ms) with percentiles: the engine's `stats()`. */
import type { FrameStats } from '../types';

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export class FrameStatsRecorder {
  private readonly update: Float64Array;
  private readonly render: Float64Array;
  private count = 0;
  private frames = 0;
  private head = 0;

  constructor(private readonly capacity = 600) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    this.update = new Float64Array(capacity);
    this.render = new Float64Array(capacity);
  }

  record(updateMs: number, renderMs: number): void {
    this.update[this.head] = updateMs;
    this.render[this.head] = renderMs;
    this.head = (this.head + 1) % this.capacity;
    this.count = Math.min(this.capacity, this.count + 1);
    this.frames++;
  }

  /** Oldest first. */
  private ordered(source: Float64Array): Float64Array {
    const out = new Float64Array(this.count);
    const start = (this.head - this.count + this.capacity) % this.capacity;
    for (let i = 0; i < this.count; i++) out[i] = source[(start + i) % this.capacity];
    return out;
  }

  snapshot(): FrameStats {
    const update = this.ordered(this.update);
    const render = this.ordered(this.render);
    const total = update.map((u, i) => u + render[i]);
    const summary = (values: Float64Array) => {
      const sorted = Float64Array.from(values).sort();
      return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
    };
    return {
      frames: this.frames,
      updateMs: summary(update),
      renderMs: summary(render),
      totalMs: summary(total),
      recent: Array.from(total),
    };
  }

  reset(): void {
    this.count = 0;
    this.head = 0;
    this.frames = 0;
  }
}
