/**
 * Seeded pseudo-random numbers for sample content: the same seed always gives the same
 * sequence, so sample data is identical on every machine (no Math.random).
 */

/** FNV-1a hash of a string to a 32-bit unsigned integer (turns a name into a seed). */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Whole number in [min, max] (both included). */
  int(min: number, max: number): number;
  pick<T>(list: readonly T[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
  /** Standard normal (Box–Muller). */
  gaussian(): number;
  /** `length` lower-case hex digits. */
  hex(length: number): string;
}

/** mulberry32: small, fast, good enough for sample data. */
export function createRng(seed: number | string): Rng {
  let state = (typeof seed === 'string' ? hashString(seed) : seed) >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (list) => {
      if (list.length === 0) throw new Error('pick from an empty list');
      return list[Math.floor(next() * list.length)];
    },
    chance: (p) => next() < p,
    gaussian: () => {
      const u = 1 - next();
      const v = next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    hex: (length) => {
      let out = '';
      while (out.length < length) out += Math.floor(next() * 0x10000).toString(16).padStart(4, '0');
      return out.slice(0, length);
    },
  };
  return rng;
}
