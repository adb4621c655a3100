/**
 * MarkerPlacement edits: an upsert, a remove or a filter differing by a few markers updates the
 * indices and the placement in place (no rebuild, no new placement), and leaves exactly what a
 * fresh layer given the same data would place, in the same draw order. What it tells its draw
 * list (replace, insert, remove, commit) adds up to the same sprites as a fresh layer's: the
 * property a draw list in another thread relies on. No renderer is needed.
 */
import { describe, expect, it, vi } from 'vitest';
import { MAPS } from '../domain/maps';
import { markerRowAt, type MarkerColumns, type MarkerRow } from '../domain/marker-columns';
import { ICON_PRIORITY } from './kernels/thinning';
import { INCREMENTAL_FILTER_MAX, MarkerPlacement, addAlwaysDrawn } from './marker-placement';
import { RecordingDrawList } from './testing/recording-draw-list';
import { randomColumns, randomRow as randomRowOn, rng } from './testing/random-markers';

const map = MAPS.customs; // 4400 × 3200, zoom 0.12 … 10
const viewport = { width: 1280, height: 800 };
/** The draw list of each placement made by newPlacement. */
const lists = new WeakMap<MarkerPlacement, RecordingDrawList>();

function newPlacement(): MarkerPlacement {
  const list = new RecordingDrawList();
  const layer = new MarkerPlacement(map, list);
  lists.set(layer, list);
  return layer;
}
const levels = map.levels.map((l) => l.num);

const columns = (n: number, seed = 3): MarkerColumns => randomColumns(map, n, rng(seed));
const randomRow = (rand: () => number, uid: string): MarkerRow => randomRowOn(map, rand, uid);

/** The layer's columns, trimmed to its slots (emptied slots keep uid ''). */
function snapshot(layer: MarkerPlacement): MarkerColumns {
  const c = layer.markers!;
  const n = layer.size;
  return {
    uids: c.uids.slice(0, n), labels: c.labels.slice(0, n),
    x: c.x.slice(0, n), y: c.y.slice(0, n), level: c.level.slice(0, n), icon: c.icon.slice(0, n), alwaysLabel: c.alwaysLabel.slice(0, n),
  };
}

function placed(layer: MarkerPlacement) {
  return {
    drawn: Array.from(layer.drawn.subarray(0, layer.drawnCount)),
    layoutX: Array.from(layer.layoutX.subarray(0, layer.drawnCount)),
    sprites: lists.get(layer)!.committed,
  };
}

/** What a fresh layer with the same markers, filter, level, selection and kept marker places for a view. */
function fresh(layer: MarkerPlacement, view: { x: number; y: number; zoom: number }, level: number, selected: number, kept = -1) {
  const other = newPlacement();
  other.setMarkers(snapshot(layer));
  other.setFilter(layer.filtered());
  other.setLevel(level);
  other.setSelected(selected);
  other.setKept(kept);
  other.update(view, viewport);
  const result = placed(other);
  other.dispose();
  return result;
}

function setup(n = 10_000, view = { x: 2200, y: 1600, zoom: 0.5 }) {
  const layer = newPlacement();
  const cols = columns(n);
  layer.setMarkers(cols);
  layer.setLevel(levels[0]);
  layer.setFilter(Uint32Array.from({ length: n }, (_, i) => i).filter((i) => i % 10 !== 0));
  expect(layer.update(view, viewport)).toBe(true);
  return { layer, cols, view };
}

describe('MarkerPlacement start', () => {
  it('places a thinned first view without its R-tree or other thinning steps, makes them when idle once the map is ready, and at once when a query needs them', async () => {
    vi.useFakeTimers();
    try {
      const { layer } = setup(20_000);
      expect(layer.counters.treeLoads).toBe(0);
      const first = placed(layer);
      expect(first.drawn.length).toBeGreaterThan(0);
      // Before the map is ready, idle moments belong to the first view.
      await vi.advanceTimersByTimeAsync(2_000);
      expect(layer.counters.treeLoads).toBe(0);
      expect(layer.counters.thinningsCompleted).toBe(0);
      layer.allowIdleWork();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(layer.counters.treeLoads).toBe(1);
      // The thinning steps the first view did not use are made then too, not in a later zoom's frame.
      expect(layer.counters.thinningsCompleted).toBe(1);
      // A rebuild after that (a new filter) leaves its tree for the next idle moment too.
      layer.setFilter(Uint32Array.from({ length: 20_000 }, (_, i) => i).filter((i) => i % 3 !== 0));
      layer.update({ x: 2200, y: 1600, zoom: 0.5 }, viewport);
      expect(layer.counters.treeLoads).toBe(1);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(layer.counters.treeLoads).toBe(2);
      layer.dispose();

      // Zoomed in to where every marker shows, the tree is what places them: loaded then.
      const close = setup(20_000, { x: 2200, y: 1600, zoom: 8 });
      expect(close.layer.counters.treeLoads).toBe(1);
      expect(placed(close.layer)).toEqual(fresh(close.layer, close.view, levels[0], -1));
      close.layer.dispose();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('MarkerPlacement edits', () => {
  it('an upsert, an append and a remove neither rebuild the indices nor place again', () => {
    const { layer, view } = setup();
    const { rebuilds, placements } = layer.counters;
    expect(rebuilds).toBe(1);
    const rand = rng(5);
    // Move a placed marker to the view's centre, append one there, remove another placed one.
    const placedOne = layer.drawn[0];
    expect(layer.upsert(placedOne, { ...randomRow(rand, `m${placedOne}`), x: 2200, y: 1600 })).not.toBeNull();
    layer.upsert(layer.size, { ...randomRow(rand, 'new'), x: 2210, y: 1610 });
    layer.remove(layer.drawn[3]);
    expect(layer.update(view, viewport)).toBe(false); // the placement still serves
    expect(layer.counters.rebuilds).toBe(rebuilds);
    expect(layer.counters.placements).toBe(placements);
    expect(layer.counters.patches).toBeGreaterThan(0);
    expect(placed(layer)).toEqual(fresh(layer, view, levels[0], -1));
  });

  it('matches a fresh layer after many random edits, thinned and unthinned, with a selection', () => {
    for (const zoom of [0.2, 0.5, 1.3, 6]) {
      const view = { x: 2000, y: 1500, zoom };
      const { layer } = setup(4000, view);
      const rand = rng(Math.round(zoom * 100));
      const selected = layer.drawn[Math.floor(layer.drawnCount / 2)];
      layer.setSelected(selected);
      layer.update(view, viewport);
      const { rebuilds, placements } = layer.counters;
      for (let step = 0; step < 300; step++) {
        const r = rand();
        const i = Math.floor(rand() * layer.size);
        // Edits near the view, so they touch the placement.
        const near = (row: MarkerRow): MarkerRow => ({ ...row, x: view.x + (row.x - 2200) / (zoom * 2), y: view.y + (row.y - 1600) / (zoom * 2) });
        if (r < 0.45) layer.upsert(i, near(randomRow(rand, `m${i}`)));
        else if (r < 0.6) layer.upsert(i, near(randomRow(rand, `m${i}`)), rand() < 0.5);
        else if (r < 0.75) layer.upsert(layer.size, near(randomRow(rand, `n${step}`)));
        else if (r < 0.9) layer.remove(i);
        else {
          const flip = Math.floor(rand() * layer.size);
          const set = new Set(layer.filtered());
          if (set.has(flip)) set.delete(flip);
          else set.add(flip);
          layer.setFilter(Uint32Array.from(set));
        }
      }
      expect(layer.update(view, viewport)).toBe(false);
      expect(layer.counters.rebuilds).toBe(rebuilds);
      expect(layer.counters.placements).toBe(placements);
      const sel = layer.markers!.uids[selected] === '' ? -1 : selected;
      expect(placed(layer)).toEqual(fresh(layer, view, levels[0], sel));
      // Zooming and panning away place again from the edited indices, still as a fresh layer would.
      const moved = { x: 1000, y: 900, zoom: zoom * 1.5 };
      expect(layer.update(moved, viewport)).toBe(true);
      expect(layer.counters.rebuilds).toBe(rebuilds);
      expect(placed(layer)).toEqual(fresh(layer, moved, levels[0], sel));
      layer.dispose();
    }
  });

  it('the next setFilter after an upsert, differing by that marker, costs no rebuild', () => {
    const { layer, view } = setup();
    const before = layer.filtered();
    // An appended marker that does not pass, then the worker's filter that adds it.
    const index = layer.size;
    layer.upsert(index, { ...randomRow(rng(9), 'late'), x: 2200, y: 1600 }, false);
    expect(layer.filtered()).toEqual(before);
    const with1 = Uint32Array.from([...before, index]);
    layer.setFilter(with1);
    expect(layer.filtered()).toEqual(with1);
    // The same list again changes nothing.
    expect(layer.setFilter(with1)).toBeNull();
    expect(layer.counters.rebuilds).toBe(1);
    expect(layer.counters.placements).toBe(1);
    expect(placed(layer)).toEqual(fresh(layer, view, levels[0], -1));
  });

  it('a filter differing by more than INCREMENTAL_FILTER_MAX markers rebuilds', () => {
    const { layer, view } = setup(2000);
    const all = layer.filtered();
    layer.setFilter(all.slice(0, all.length - INCREMENTAL_FILTER_MAX - 1));
    layer.update(view, viewport);
    expect(layer.counters.rebuilds).toBe(2);
    expect(placed(layer)).toEqual(fresh(layer, view, levels[0], -1));
  });

  it('keeps passing state: a replaced marker keeps it, a new or refilled slot passes, `passes` decides', () => {
    const { layer } = setup(100);
    const has = (i: number) => layer.filtered().includes(i);
    const rand = rng(1);
    expect(has(10)).toBe(false);
    layer.upsert(10, randomRow(rand, 'm10'));
    expect(has(10)).toBe(false);
    layer.upsert(11, randomRow(rand, 'm11'));
    expect(has(11)).toBe(true);
    layer.upsert(11, randomRow(rand, 'm11'), false);
    expect(has(11)).toBe(false);
    layer.upsert(100, randomRow(rand, 'new'));
    expect(has(100)).toBe(true);
    layer.remove(12);
    expect(has(12)).toBe(false);
    expect(layer.markers!.uids[12]).toBe('');
    // An emptied slot never passes a filter, even if a stale list names it.
    layer.setFilter(Uint32Array.from({ length: 101 }, (_, i) => i));
    expect(has(12)).toBe(false);
    layer.upsert(12, randomRow(rand, 'm12'));
    expect(has(12)).toBe(true);
  });

  it('never writes to the columns it was given, and grows its own with spare capacity', () => {
    const cols = columns(1000);
    const uids = [...cols.uids];
    const x = cols.x.slice();
    const layer = newPlacement();
    layer.setMarkers(cols);
    layer.update({ x: 2200, y: 1600, zoom: 0.5 }, viewport);
    layer.upsert(0, { ...markerRowAt(cols, 0), x: 1 });
    layer.remove(1);
    const buffers = new Set<ArrayBufferLike>();
    const rand = rng(2);
    for (let k = 0; k < 5000; k++) {
      layer.upsert(layer.size, randomRow(rand, `a${k}`));
      buffers.add(layer.markers!.x.buffer);
    }
    expect(cols.uids).toEqual(uids);
    expect(cols.x).toEqual(x);
    expect(layer.size).toBe(6000);
    expect(layer.markers!.uids.length).toBe(6000);
    expect(layer.markers!.x.length).toBeGreaterThanOrEqual(6000);
    // Doubling: a handful of reallocations for 5000 appends (amortised O(1) each).
    expect(buffers.size).toBeLessThanOrEqual(4);
    expect(layer.counters.rebuilds).toBe(1);
  });

  it('drops the selection of a removed marker without placing again', () => {
    const { layer, view } = setup(3000);
    const sel = layer.drawn[5];
    layer.setSelected(sel);
    layer.update(view, viewport);
    const placements = layer.counters.placements;
    expect(layer.drawn[layer.drawnCount - 1]).toBe(sel); // drawn on top
    // A quarter larger than the others, and at its layout position.
    const sprites = lists.get(layer)!.committed;
    expect(sprites.at(-1)).toMatchObject({ size: layer.iconCss * 1.25, layoutX: layer.layoutX[layer.drawnCount - 1] });
    expect(sprites[0].size).toBe(layer.iconCss);
    layer.upsert(sel, { ...markerRowAt(layer.markers!, sel), x: view.x + 5 });
    expect(layer.drawn[layer.drawnCount - 1]).toBe(sel);
    expect(layer.isDrawn(sel)).toBe(true);
    layer.remove(sel);
    expect(layer.isDrawn(sel)).toBe(false);
    expect(layer.counters.placements).toBe(placements);
    expect(placed(layer)).toEqual(fresh(layer, view, levels[0], -1));
  });

  it('edits before the first placement only wait for it', () => {
    const layer = newPlacement();
    layer.setMarkers(columns(500));
    expect(layer.upsert(500, randomRow(rng(4), 'early'))).toBeNull();
    expect(layer.remove(3)).toBeNull();
    layer.update({ x: 2200, y: 1600, zoom: 0.5 }, viewport);
    expect(layer.counters.rebuilds).toBe(1);
    expect(placed(layer)).toEqual(fresh(layer, { x: 2200, y: 1600, zoom: 0.5 }, map.defaultLevel, -1));
    expect(() => layer.upsert(9999, randomRow(rng(4), 'x'))).toThrow(RangeError);
  });

  it('warns about out-of-range filter indices', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { layer } = setup(50);
    layer.setFilter(Uint32Array.from([1, 2, 99]));
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/1 filter indices out of range/));
    expect(Array.from(layer.filtered())).toEqual([1, 2]);
    warn.mockRestore();
  });
});

describe('addAlwaysDrawn', () => {
  const x = Float32Array.from([10, 20, 30, 40, 5000]);
  const y = Float32Array.from([10, 20, 30, 40, 10]);
  const passes = Uint8Array.from([1, 1, 0, 1, 1]);
  const rect = { minX: 0, minY: 0, maxX: 100, maxY: 100 };

  it('adds the exempt markers that lost their cell: passing, in the rectangle, once each', () => {
    const found = [0];
    addAlwaysDrawn(found, Int32Array.from([1, 3]), passes, x, y, rect);
    expect(found).toEqual([0, 1, 3]);
    // Already placed (it won its cell), or the selected one is also the kept one: not twice.
    addAlwaysDrawn(found, Int32Array.from([3, 3]), passes, x, y, rect);
    expect(found).toEqual([0, 1, 3]);
  });

  it('skips none (−1), a marker filtered out, and one outside the placed rectangle', () => {
    const found: number[] = [];
    addAlwaysDrawn(found, Int32Array.from([-1, 2, 4]), passes, x, y, rect);
    expect(found).toEqual([]);
  });
});

describe('MarkerPlacement kept marker (an admin just placed, copied or moved it)', () => {
  /** The most and the least important icons of the thinning. */
  const top = ICON_PRIORITY.indexOf(Math.min(...ICON_PRIORITY));
  const bottom = ICON_PRIORITY.indexOf(Math.max(...ICON_PRIORITY));

  /** A thinned view whose drawn marker `winner` (made most important) has a new, least important marker on top of it. */
  function crowded() {
    const { layer, view } = setup(3000);
    const winner = layer.drawn[Math.floor(layer.drawnCount / 2)];
    const cols = layer.markers!;
    layer.upsert(winner, { ...markerRowAt(cols, winner), icon: top, level: levels[0] });
    const placedOne = layer.size;
    layer.upsert(placedOne, { uid: 'placed', x: cols.x[winner] + 1, y: cols.y[winner] + 1, level: levels[0], icon: bottom, label: 'Placed', alwaysLabel: 0 });
    return { layer, view, winner, placedOne };
  }

  it('loses its cell to its neighbour when not kept (the visitors\' thinning)', () => {
    const { layer, view, winner, placedOne } = crowded();
    layer.update(view, viewport);
    expect(layer.isDrawn(winner)).toBe(true);
    expect(layer.isDrawn(placedOne)).toBe(false);
    expect(placed(layer)).toEqual(fresh(layer, view, levels[0], -1));
  });

  it('is drawn over its neighbour, which stays drawn, below the selected marker; at any zoom; until it is no longer kept', () => {
    const { layer, view, winner, placedOne } = crowded();
    layer.setKept(placedOne);
    expect(layer.update(view, viewport)).toBe(true);
    expect(layer.isDrawn(placedOne)).toBe(true);
    expect(layer.isDrawn(winner)).toBe(true);
    expect(layer.drawn[layer.drawnCount - 1]).toBe(placedOne);
    // Drawn at its usual size (only the selected one is larger).
    expect(lists.get(layer)!.committed.at(-1)!.size).toBe(layer.iconCss);
    expect(placed(layer)).toEqual(fresh(layer, view, levels[0], -1, placedOne));
    // Its popup opened on another marker: that one on top, the kept one still drawn.
    layer.setSelected(winner);
    layer.update(view, viewport);
    expect(layer.drawn.subarray(layer.drawnCount - 2, layer.drawnCount)).toEqual(Uint32Array.from([placedOne, winner]));
    layer.setSelected(-1);
    // Zoomed out (fewer cells, each wider), the kept marker still shows.
    const out = { ...view, zoom: view.zoom / 2 };
    layer.update(out, viewport);
    expect(layer.isDrawn(placedOne)).toBe(true);
    expect(placed(layer)).toEqual(fresh(layer, out, levels[0], -1, placedOne));
    // No longer kept (the next placement, the editor closed): thinned as for everyone.
    layer.setKept(-1);
    layer.update(out, viewport);
    expect(layer.isDrawn(placedOne)).toBe(false);
    expect(placed(layer)).toEqual(fresh(layer, out, levels[0], -1));
  });

  it('follows its moves by a patch (a drag onto a neighbour), and is dropped with its slot', () => {
    const { layer, view, placedOne } = crowded();
    layer.setKept(placedOne);
    layer.update(view, viewport);
    const placements = layer.counters.placements;
    const cols = layer.markers!;
    // A marker in view that wins its cell against the kept one.
    const other = Array.from(layer.drawn.subarray(0, layer.drawnCount)).find((i) => i !== placedOne && layer.isDrawn(i) && cols.level[i] === levels[0] && ICON_PRIORITY[cols.icon[i]] < ICON_PRIORITY[bottom])!;
    layer.upsert(placedOne, { ...markerRowAt(cols, placedOne), x: cols.x[other], y: cols.y[other] });
    expect(layer.update(view, viewport)).toBe(false);
    expect(layer.counters.placements).toBe(placements);
    expect(layer.isDrawn(placedOne)).toBe(true);
    expect(layer.isDrawn(other)).toBe(true);
    expect(placed(layer)).toEqual(fresh(layer, view, levels[0], -1, placedOne));
    layer.remove(placedOne);
    expect(layer.isDrawn(placedOne)).toBe(false);
    // A new marker in the emptied slot is not kept.
    layer.upsert(placedOne, { ...markerRowAt(cols, other), uid: 'another', x: cols.x[other] + 1, icon: bottom });
    layer.update(view, viewport);
    expect(placed(layer)).toEqual(fresh(layer, view, levels[0], -1));
  });
});
