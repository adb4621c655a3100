/**
 * The page hit-tests its own placement and the render worker draws another (docs/ENGINE-WORKER.md):
 * they must agree. A MapEngine (no PixiJS) drives a WorkerSceneDriver over a fake port through a
 * random run of the API's marker calls and camera moves; the worker's side is replayed from the
 * messages alone (applySceneOp on a placement of its own, placed as the scene host places). After
 * every frame both sides draw the same sprites, in the same order, at the same offset.
 */
// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { MAPS } from '../../domain/maps';
import type { MarkerColumns, MarkerRow } from '../../domain/marker-columns';
import { EARLY_PLACEMENT_MIN_MARKERS, MapEngine } from '../map-engine';
import { MarkerPlacement } from '../marker-placement';
import { useHeldAnimationFrames } from '../testing/animation-frames';
import { RecordingDrawList } from '../testing/recording-draw-list';
import { randomColumns, randomRow as randomRowOn, rng } from '../testing/random-markers';
import { applySceneOp, type SceneInputs } from './apply-op';
import type { FromRenderWorker, RenderFrame, ToRenderWorker } from './protocol';
import { WorkerSceneDriver, type RenderPort } from './worker-scene';

const map = MAPS.customs;
const levels = map.levels.map((l) => l.num);

const randomRow = (rand: () => number, uid: string): MarkerRow => randomRowOn(map, rand, uid);
const columns = (n: number, rand: () => number): MarkerColumns => randomColumns(map, n, rand);

/** The worker's side: what scene-host.ts does with a frame, minus PixiJS. */
class WorkerTwin {
  readonly list = new RecordingDrawList();
  readonly placement = new MarkerPlacement(map, this.list);
  private dirty = true;
  /** The badges the worker's scene was told last. */
  flags: { index: number; flag: string }[] = [];
  private readonly scene: SceneInputs = {
    markersChanged: () => undefined, forgetLabel: () => undefined, labelsChanged: () => undefined, setLevel: () => undefined,
    setPlayer: () => undefined, setLabelMode: () => undefined, setHovered: () => undefined, setSelected: () => undefined,
    setFlags: (flags) => {
      this.flags = flags.map((f) => ({ ...f }));
    },
    setShapes: () => undefined, setPreview: () => undefined, resize: () => undefined,
  };

  take(frame: RenderFrame): void {
    // Through a structured clone, as a worker gets it.
    const copy = structuredClone(frame);
    let cameraChanged = copy.cameraChanged;
    for (const op of copy.ops) {
      const effect = applySceneOp(op, this.placement, this.scene);
      if (effect === 'placement') this.dirty = true;
      if (effect === 'size') cameraChanged = true;
    }
    if (cameraChanged || this.dirty) {
      this.placement.update(copy.view, copy.viewport);
      this.dirty = false;
    }
  }
}

class Port implements RenderPort {
  onmessage: ((event: MessageEvent<FromRenderWorker>) => void) | null = null;
  constructor(private readonly twin: WorkerTwin) {}
  postMessage(message: ToRenderWorker): void {
    if (message.type === 'frame') this.twin.take(message);
  }
  terminate(): void {}
  /** The worker says it drew the map ready. */
  ready(): void {
    this.onmessage?.({ data: { type: 'drawn', updateMs: 1, renderMs: 1, firstTileAt: null, readyAt: performance.timeOrigin + performance.now() } } as MessageEvent<FromRenderWorker>);
  }
}

const { flushFrames } = useHeldAnimationFrames();

function setup(placesLate = false) {
  const container = document.createElement('div');
  Object.defineProperty(container, 'clientWidth', { value: 1280 });
  Object.defineProperty(container, 'clientHeight', { value: 800 });
  const canvas = document.createElement('canvas');
  container.appendChild(canvas);
  const twin = new WorkerTwin();
  const port = new Port(twin);
  const mainList = new RecordingDrawList();
  const placement = new MarkerPlacement(map, mainList);
  const engine = new MapEngine(
    { canvas, dpr: 1, renderer: 'webgl', placesLate },
    placement,
    { container, map, manifest: { map: map.id, version: 'v', layers: ['main'], width: 4400, height: 3200, minZ: 0, maxZ: 4, tileSize: 256 } as never, iconUrl: () => '' },
    (hooks) => new WorkerSceneDriver(port, hooks, { canvas, drawAtlas: () => Promise.reject(new Error('unused')) }),
  );
  return { engine, twin, mainList, port, placement };
}

describe('the page and the render worker place alike', () => {
  it.each([1, 2, 3])('after every frame of a random run of edits and camera moves (seed %i)', (seed) => {
    const rand = rng(seed);
    const { engine, twin, mainList } = setup();
    let cols = columns(1500, rand);
    engine.setMarkers(cols);
    let count = cols.uids.length;
    flushFrames();
    expect(mainList.committed.length).toBeGreaterThan(0);
    const check = (step: string) => {
      flushFrames();
      expect(twin.list.committed, step).toEqual(mainList.committed);
      expect(twin.list.offset, step).toEqual(mainList.offset);
    };
    check('first frame');
    for (let step = 0; step < 120; step++) {
      const r = rand();
      if (r < 0.3) {
        // A drag: the same marker moved a few times within one frame.
        const i = Math.floor(rand() * count);
        const uid = `m${i}`;
        for (let k = 0; k < 3; k++) engine.upsertMarker(i, { ...randomRow(rand, uid), uid });
      } else if (r < 0.4) {
        engine.upsertMarker(count, randomRow(rand, `n${count}`));
        count++;
      } else if (r < 0.5) {
        engine.removeMarker(Math.floor(rand() * count));
      } else if (r < 0.58) {
        const keep = Array.from({ length: count }, (_, i) => i).filter(() => rand() < 0.9);
        engine.setFilter(Uint32Array.from(keep));
      } else if (r < 0.65) {
        engine.setLevel(levels[Math.floor(rand() * levels.length)]);
      } else if (r < 0.72) {
        engine.setSelected(rand() < 0.2 ? null : `m${Math.floor(rand() * count)}`);
      } else if (r < 0.76) {
        engine.setMarkerScale(0.75 + rand());
      } else if (r < 0.78) {
        cols = columns(800 + Math.floor(rand() * 800), rand);
        engine.setMarkers(cols);
        count = cols.uids.length;
      } else {
        engine.setView({ x: rand() * map.size.width, y: rand() * map.size.height, zoom: map.minZoom * 2 ** (rand() * 5) });
      }
      check(`step ${step}`);
    }
    engine.dispose();
  });

  it('a kept marker (keepDrawn: an admin\'s last placed one) is drawn alike through drags, removals, new lists and zooms', () => {
    const rand = rng(11);
    const { engine, twin, mainList } = setup();
    let cols = columns(1500, rand);
    engine.setMarkers(cols);
    let count = cols.uids.length;
    const check = (step: string) => {
      flushFrames();
      expect(twin.list.committed, step).toEqual(mainList.committed);
    };
    check('first frame');
    for (let step = 0; step < 80; step++) {
      const r = rand();
      const uid = `m${Math.floor(rand() * count)}`;
      if (r < 0.3) engine.keepDrawn(rand() < 0.15 ? null : uid);
      else if (r < 0.5) {
        const i = Math.floor(rand() * count);
        for (let k = 0; k < 3; k++) engine.upsertMarker(i, { ...randomRow(rand, `m${i}`), uid: `m${i}` });
      } else if (r < 0.6) engine.removeMarker(Math.floor(rand() * count));
      else if (r < 0.65) {
        cols = columns(800 + Math.floor(rand() * 800), rand);
        engine.setMarkers(cols);
        count = cols.uids.length;
      } else if (r < 0.75) engine.setSelected(uid);
      else engine.setView({ x: rand() * map.size.width, y: rand() * map.size.height, zoom: map.minZoom * 2 ** (rand() * 5) });
      check(`step ${step}`);
    }
    engine.dispose();
  });

  it('badges follow their uid through edits, removals, a new list and its return, and reach the worker as slots', () => {
    const rand = rng(5);
    const { engine, twin } = setup();
    const cols = columns(300, rand);
    engine.setMarkers(cols);
    flushFrames();
    // A uid not on the map yet (an unsaved marker the list does not hold) is kept for later.
    engine.setMarkerFlags({ m3: 'saving', m10: 'failed', ghost: 'failed' });
    flushFrames();
    expect(twin.flags).toEqual([{ index: 3, flag: 'saving' }, { index: 10, flag: 'failed' }]);
    const flagged = () => Object.fromEntries(engine.markerStates().filter((m) => m.flag).map((m) => [m.uid, m.flag]));
    expect(flagged()).toEqual({ m3: 'saving', m10: 'failed' });
    engine.upsertMarker(300, { ...randomRow(rand, 'ghost'), uid: 'ghost' });
    engine.removeMarker(3);
    flushFrames();
    expect(twin.flags).toEqual([{ index: 10, flag: 'failed' }, { index: 300, flag: 'failed' }]);
    // A reloaded list puts the uids in other slots: the badges go with them.
    const reordered: MarkerColumns = columns(20, rand);
    reordered.uids = reordered.uids.map((_, i) => (i === 2 ? 'ghost' : i === 7 ? 'm10' : `r${i}`));
    engine.setMarkers(reordered);
    flushFrames();
    expect(twin.flags).toEqual([{ index: 2, flag: 'failed' }, { index: 7, flag: 'failed' }]);
    engine.setMarkerFlags({});
    flushFrames();
    expect(twin.flags).toEqual([]);
    expect(flagged()).toEqual({});
    engine.dispose();
  });

  it('a page that places late (the worker draws first) places once the worker says ready, and then agrees', () => {
    const rand = rng(7);
    const { engine, twin, mainList, port } = setup(true);
    engine.setMarkers(columns(1200, rand));
    engine.setView({ zoom: map.minZoom * 4 });
    flushFrames();
    expect(twin.list.committed.length).toBeGreaterThan(0);
    expect(mainList.committed).toEqual([]);
    expect(engine.markerStates().some((m) => m.visible)).toBe(false);
    port.ready();
    expect(engine.ready).toBe(true);
    // Placed as ready is told, before any frame: a click right after ready hits what is drawn.
    expect(mainList.committed).toEqual(twin.list.committed);
    flushFrames();
    expect(mainList.committed).toEqual(twin.list.committed);
    expect(engine.markerStates().some((m) => m.visible)).toBe(true);
    engine.dispose();
  });

  it('a page that places a large set late uses an idle moment before ready, and places again at ready only when something changed since', () => {
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (cb: () => void) => idle.push(cb));
    const rand = rng(11);
    const { engine, twin, mainList, port, placement } = setup(true);
    const update = vi.spyOn(placement, 'update');
    engine.setMarkers(columns(EARLY_PLACEMENT_MIN_MARKERS, rand));
    engine.setFilter(Uint32Array.from({ length: 1000 }, (_, i) => i));
    flushFrames();
    expect(update).not.toHaveBeenCalled(); // no frame before ready places
    expect(idle).toHaveLength(1); // one idle placement asked for, however many changes
    idle.splice(0).forEach((run) => run());
    expect(update).toHaveBeenCalledTimes(1);
    port.ready();
    expect(engine.ready).toBe(true);
    expect(update).toHaveBeenCalledTimes(1); // ready found the placement current
    flushFrames();
    expect(mainList.committed).toEqual(twin.list.committed);
    engine.dispose();

    // The camera moved after the idle placement: ready places again, for the new camera.
    const second = setup(true);
    const secondUpdate = vi.spyOn(second.placement, 'update');
    second.engine.setMarkers(columns(EARLY_PLACEMENT_MIN_MARKERS, rng(12)));
    idle.splice(0).forEach((run) => run());
    expect(secondUpdate).toHaveBeenCalledTimes(1);
    second.engine.setView({ zoom: map.minZoom * 4 });
    flushFrames();
    second.port.ready();
    expect(secondUpdate).toHaveBeenCalledTimes(2);
    flushFrames();
    expect(second.mainList.committed).toEqual(second.twin.list.committed);
    second.engine.dispose();
  });

  it('a page that places a smaller set late leaves it for ready', () => {
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (cb: () => void) => idle.push(cb));
    const { engine, port, placement } = setup(true);
    const update = vi.spyOn(placement, 'update');
    engine.setMarkers(columns(EARLY_PLACEMENT_MIN_MARKERS - 1, rng(13)));
    flushFrames();
    expect(idle).toHaveLength(0);
    port.ready();
    expect(update).toHaveBeenCalledTimes(1);
    engine.dispose();
  });

  it('tells a listener that comes late that the scene failed', async () => {
    const { engine, port } = setup();
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    port.onmessage?.({ data: { type: 'error', message: 'no WebGL in workers' } } as MessageEvent<FromRenderWorker>);
    const heard: string[] = [];
    engine.on('failed', ({ message }) => heard.push(message));
    const off = engine.on('failed', ({ message }) => heard.push(`unheard ${message}`));
    off();
    await Promise.resolve();
    expect(heard).toEqual(['no WebGL in workers']);
    expect(consoleError).toHaveBeenCalledWith('raidmap: no WebGL in workers');
    consoleError.mockRestore();
    engine.dispose();
  });
});
