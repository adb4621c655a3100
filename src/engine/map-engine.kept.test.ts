/**
 * The engine's kept marker (`keepDrawn`): the marker an admin just placed, copied or moved is
 * drawn whatever the thinning, follows its uid, and goes with the editor (docs/DECISIONS.md
 * "Markers drawn whatever the thinning"). No PixiJS: the engine's own placement is read through
 * `markerStates()`, and what the scene is told is recorded.
 */
// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { MAPS } from '../domain/maps';
import type { MarkerColumns, MarkerRow } from '../domain/marker-columns';
import { NO_EDITOR, StateNode, type ToolContext } from './interaction';
import { ICON_PRIORITY } from './kernels/thinning';
import { MapEngine } from './map-engine';
import { MarkerPlacement } from './marker-placement';
import type { SceneDriver } from './scene-driver';
import { useHeldAnimationFrames } from './testing/animation-frames';
import type { EngineOptions } from './types';

const map = MAPS.customs;
const level = map.defaultLevel;
/** The most and the least important icons of the thinning. */
const top = ICON_PRIORITY.indexOf(Math.min(...ICON_PRIORITY));
const bottom = ICON_PRIORITY.indexOf(Math.max(...ICON_PRIORITY));
/** A zoom where one marker is drawn per icon-sized cell. */
const view = { x: 2200, y: 1600, zoom: 0.5 };

const { flushFrames } = useHeldAnimationFrames();

/** `w` (most important) and `o` apart; `p` is placed later, by the tests, on top of `w`. */
function columns(uids = ['w', 'o']): MarkerColumns {
  const at: Record<string, [number, number, number]> = { w: [2200, 1600, top], o: [2600, 1400, top], p: [2200, 1600, bottom] };
  return {
    uids: [...uids],
    labels: uids.map((u) => u.toUpperCase()),
    x: Float32Array.from(uids, (u) => at[u][0]),
    y: Float32Array.from(uids, (u) => at[u][1]),
    level: Int16Array.from(uids, () => level),
    icon: Uint8Array.from(uids, (u) => at[u][2]),
    alwaysLabel: new Uint8Array(uids.length),
  };
}
const placedRow: MarkerRow = { uid: 'p', x: 2200, y: 1600, level, icon: bottom, label: 'P', alwaysLabel: 0 };

class CapturingPan extends StateNode {
  readonly id = 'pan';
  static ctx: ToolContext | null = null;
  constructor(ctx: ToolContext) {
    super(ctx);
    CapturingPan.ctx = ctx;
  }
}

function engine() {
  const container = document.createElement('div');
  Object.defineProperty(container, 'clientWidth', { value: 1280 });
  Object.defineProperty(container, 'clientHeight', { value: 800 });
  const canvas = document.createElement('canvas');
  container.appendChild(canvas);
  const told: number[] = [];
  const scene = new Proxy({} as SceneDriver, {
    get: (_, name) => (name === 'setKept' ? (index: number) => void told.push(index) : name === 'frame' ? () => false : () => undefined),
  });
  const options = { container, map, manifest: { map: map.id, version: 'v', layers: ['main'], minZ: 0, maxZ: 4, tileSize: 256 }, iconUrl: () => '', tools: [(ctx: ToolContext) => new CapturingPan(ctx)] } as unknown as EngineOptions;
  const api = new MapEngine({ canvas, dpr: 1, renderer: 'webgl' }, new MarkerPlacement(map), options, () => scene);
  api.setView(view);
  const visible = () => {
    flushFrames();
    return api.markerStates().filter((m) => m.visible).map((m) => m.uid).sort();
  };
  return { api, told, visible };
}

describe('MapEngine keepDrawn', () => {
  it('without it, a marker placed on a more important one is thinned away (as visitors see it)', () => {
    const { api, visible } = engine();
    api.setMarkers(columns());
    api.upsertMarker(2, placedRow);
    expect(visible()).toEqual(['o', 'w']);
  });

  it('draws the kept uid over its neighbour, named before its marker arrives; its neighbour stays', () => {
    const { api, told, visible } = engine();
    api.setMarkers(columns());
    expect(visible()).toEqual(['o', 'w']);
    // The editor says so before the page's copy (the markers worker) has the new marker.
    api.keepDrawn?.('p');
    expect(told).toEqual([]);
    api.upsertMarker(2, placedRow);
    expect(told).toEqual([2]);
    expect(visible()).toEqual(['o', 'p', 'w']);
    // The next kept marker takes its place: `p` is thinned as before.
    api.keepDrawn?.('o');
    expect(told).toEqual([2, 1]);
    expect(visible()).toEqual(['o', 'w']);
  });

  it('follows its uid into a reloaded list, drops it with its slot and takes it back with its return', () => {
    const { api, told, visible } = engine();
    api.setMarkers(columns());
    api.keepDrawn?.('p');
    api.upsertMarker(2, placedRow);
    // A reloaded list has it in another slot.
    api.setMarkers(columns(['p', 'w', 'o']));
    expect(told.at(-1)).toBe(0);
    expect(visible()).toEqual(['o', 'p', 'w']);
    // Undone (removed), then redone (back).
    api.removeMarker(0);
    expect(visible()).toEqual(['o', 'w']);
    api.upsertMarker(0, placedRow);
    expect(visible()).toEqual(['o', 'p', 'w']);
  });

  it('keeps the marker the move tool drags, and lets go of it when the editor leaves (tool host gone)', () => {
    const { api, visible } = engine();
    api.setMarkers(columns(['w', 'o', 'p']));
    api.setToolHost({ ...NO_EDITOR });
    expect(visible()).toEqual(['o', 'w']);
    // A drag preview: `p` moved onto `o`, which wins that cell too.
    CapturingPan.ctx!.previewMarkerAt('p', 2600, 1400);
    expect(visible()).toEqual(['o', 'p', 'w']);
    api.setToolHost(NO_EDITOR);
    expect(visible()).toEqual(['o', 'w']);
  });
});
