/** LRU eviction under a byte budget: a pure plan of which cache entries to drop. */
export interface CacheEntry {
  key: string;
  bytes: number;
  /** Frame (or tick) when the entry was last drawn; older is evicted first. */
  lastUsed: number;
  /** Drawn or wanted right now: never evicted. */
  pinned: boolean;
}

/**
 * Keys to evict so that the total stays within `budgetBytes`, least recently used first.
 * Pinned entries are kept even when they alone exceed the budget.
 */
export function planEviction(entries: readonly CacheEntry[], budgetBytes: number): string[] {
  let total = 0;
  for (const e of entries) total += e.bytes;
  if (total <= budgetBytes) return [];
  const candidates = entries.filter((e) => !e.pinned).sort((a, b) => a.lastUsed - b.lastUsed);
  const evict: string[] = [];
  for (const e of candidates) {
    if (total <= budgetBytes) break;
    evict.push(e.key);
    total -= e.bytes;
  }
  return evict;
}

/** Bytes of an RGBA texture. */
export function textureBytes(width: number, height: number): number {
  return Math.max(0, width) * Math.max(0, height) * 4;
}
