/**
 * Seeded random markers for engine tests: the same seed gives the same markers, on any machine.
 */
import { SUBCATEGORIES } from '../../domain/categories';
import type { MapDefinition } from '../../domain/maps';
import type { MarkerColumns, MarkerRow } from '../../domain/marker-columns';

/** A seeded generator of numbers in [0, 1). */
export function rng(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** `n` markers `m0`… spread over the map, on its levels, with random icons. */
export function randomColumns(map: MapDefinition, n: number, rand: () => number): MarkerColumns {
  const levels = map.levels.map((l) => l.num);
  const c: MarkerColumns = {
    uids: [], labels: [],
    x: new Float32Array(n), y: new Float32Array(n), level: new Int16Array(n), icon: new Uint8Array(n), alwaysLabel: new Uint8Array(n),
  };
  for (let i = 0; i < n; i++) {
    c.uids.push(`m${i}`);
    c.labels.push(`Marker ${i}`);
    c.x[i] = rand() * map.size.width;
    c.y[i] = rand() * map.size.height;
    c.level[i] = levels[Math.floor(rand() * levels.length)];
    c.icon[i] = Math.floor(rand() * SUBCATEGORIES.length);
  }
  return c;
}

/** One marker row for `uid` somewhere on the map (an edit or a new marker). */
export function randomRow(map: MapDefinition, rand: () => number, uid: string): MarkerRow {
  const levels = map.levels.map((l) => l.num);
  return {
    uid,
    x: rand() * map.size.width,
    y: rand() * map.size.height,
    level: levels[Math.floor(rand() * levels.length)],
    icon: Math.floor(rand() * SUBCATEGORIES.length),
    label: `Edited ${uid}`,
    alwaysLabel: rand() < 0.1 ? 1 : 0,
  };
}
