/** Greedy label declutter: place labels in priority order, drop any that would overlap a placed one. */

export interface LabelCandidate {
  id: number;
  /** Lower value = placed first. */
  priority: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export function overlaps(a: Omit<LabelCandidate, 'id' | 'priority'>, b: Omit<LabelCandidate, 'id' | 'priority'>): boolean {
  return a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY;
}

/**
 * Ids of the labels kept. Uses a uniform grid of `cellPx` buckets so the cost stays
 * near-linear in the number of candidates.
 */
export function declutter(candidates: readonly LabelCandidate[], cellPx = 64): number[] {
  const sorted = [...candidates].sort((a, b) => a.priority - b.priority || a.id - b.id);
  const buckets = new Map<number, LabelCandidate[]>();
  const kept: number[] = [];
  const cellsOf = (c: LabelCandidate, visit: (key: number) => boolean | void) => {
    const x0 = Math.floor(c.minX / cellPx);
    const x1 = Math.floor(c.maxX / cellPx);
    const y0 = Math.floor(c.minY / cellPx);
    const y1 = Math.floor(c.maxY / cellPx);
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        if (visit((y + 32768) * 65536 + (x + 32768)) === true) return true;
      }
    }
    return false;
  };
  for (const c of sorted) {
    const blocked = cellsOf(c, (key) => buckets.get(key)?.some((p) => overlaps(p, c)) ?? false);
    if (blocked) continue;
    kept.push(c.id);
    cellsOf(c, (key) => {
      const list = buckets.get(key);
      if (list) list.push(c);
      else buckets.set(key, [c]);
    });
  }
  return kept;
}
