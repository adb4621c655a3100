// @vitest-environment jsdom
import '../../i18n';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MarkerChange } from '../../api/live';
import type { Marker } from '../../domain/marker';
import { MAPS } from '../../domain/maps';
import { fakeSink, flush, marker } from '../../editor/testing/fakes';
import { NO_EDITOR, type ToolHost } from '../../engine/interaction';
import type { MarkerState } from '../../engine/types';
import { editor, reloadMarkers, resetEditor, saveMarker, toggleEditMode, toggleMoveMode } from '../../state/editor';
import { closeMap, selectMarker } from '../../state/mapView';
import { addRecordedPoint, resetPoints, toggleCoordsShown, togglePointsShown, toggleRecording } from '../../state/points';
import { popup, resetPopup } from '../../state/popup';
import { resetSession, setSessionUser } from '../../state/session';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { createFakeEngine } from './testing/fakeEngine';
import { wireEditor } from './wireEditor';
import { LIST_MAX_STALE_MS, LIST_SETTLE_MS } from '../../domain/list-freshness';

const live = vi.hoisted(() => ({
  onChange: null as ((change: MarkerChange) => void) | null,
  onState: null as ((state: 'connected' | 'reconnecting' | 'off') => void) | null,
  /** compactListChanged's answers, in turn (then false), and how often it was asked. */
  listChanged: { answers: [] as boolean[], asked: 0 },
}));
const updates = vi.hoisted(() => [] as unknown[]);
/** The adds asked of the server, by uid; while `down`, each add and update fails as the server not reached. */
const adds = vi.hoisted(() => ({ down: false, asked: [] as string[] }));

vi.mock('../../api/live', () => ({
  subscribeMarkerChanges: (_map: string, onChange: (change: MarkerChange) => void, onState?: (state: 'connected' | 'reconnecting' | 'off') => void) => {
    live.onChange = onChange;
    live.onState = onState ?? null;
    return () => {
      live.onChange = null;
      live.onState = null;
    };
  },
}));
vi.mock('../../api/markers', () => ({
  compactListChanged: async () => {
    live.listChanged.asked++;
    return live.listChanged.answers.shift() ?? false;
  },
}));
vi.mock('../../api/admin', async () => ({
  updateMarker: async (m: Marker) => {
    if (adds.down) throw new (await import('../../api/client')).ApiError('/api/be/admin/marker', 0, 'network', 'Failed to fetch');
    updates.push(m);
    return { ...m, version: (m.version ?? 0) + 1 };
  },
  addMarker: async (m: Marker) => {
    adds.asked.push(m.uid);
    if (adds.down) throw new (await import('../../api/client')).ApiError('/api/be/admin/marker/add', 0, 'network', 'Failed to fetch');
    return { ...m, version: 1 };
  },
  deleteMarker: async () => ({ version: 2 }),
  uploadMarkerImage: async () => {
    throw new Error('not here');
  },
  fetchMarkerHistory: async () => [],
}));

let stopWiring: (() => void) | null = null;

const admin = { pro: false, admin: true, questsDone: [], questsHidden: [] };

function state(uid: string, subCategory: string): MarkerState {
  return { uid, subCategory, level: 1, x: 100, y: 200, alpha: 1, visible: true, flag: null };
}

/** An admin's map page: the engine (dragging when told), its page of markers, and the tool host the editor gave it. */
function adminMap(resync?: () => Promise<void>) {
  setSessionUser(admin);
  const engine = createFakeEngine();
  const page = fakeSink([{ ...marker('m1', { subCategory: 'Safe' }), version: 1 }, { ...marker('m2'), version: 1 }]);
  engine.markerStates = () => [...page.markers.values()].map((m) => state(m.uid, m.subCategory));
  const stop = wireEditor({ engine, sink: page.sink, map: MAPS.customs, adminTools: [], resync });
  stopWiring = stop;
  const host = engine.calls.filter((c) => c.method === 'setToolHost' && c.args[0] !== NO_EDITOR).at(-1)?.args[0] as ToolHost;
  let path = 'move.idle';
  engine.toolPath = () => path;
  const setPath = (next: string) => {
    path = next;
    engine.emit('toolchange', { path: next });
  };
  return { engine, page, host, stop, setPath };
}

beforeEach(() => {
  setStorageBackend(memoryStorage());
  updates.length = 0;
  adds.down = false;
  adds.asked.length = 0;
});
afterEach(() => {
  stopWiring?.();
  stopWiring = null;
  resetSession();
  resetEditor();
  resetPopup();
  resetPoints();
  closeMap();
  document.body.replaceChildren();
  setStorageBackend(null);
});

describe('wireEditor: the list checked once the live feed listens', () => {
  it('checks the list only after the server\'s list is sure to hold a change made just before the feed listened, and reads it again when it differs', async () => {
    vi.useFakeTimers();
    try {
      setSessionUser(admin);
      const engine = createFakeEngine();
      const page = fakeSink([]);
      let resyncs = 0;
      stopWiring = wireEditor({ engine, sink: page.sink, map: MAPS.customs, adminTools: [], resync: async () => void resyncs++ });
      // The list differs once (a change made just before the feed listened), then is the server's.
      live.listChanged = { answers: [true], asked: 0 };
      live.onState?.('connected');
      await vi.advanceTimersByTimeAsync(LIST_MAX_STALE_MS);
      // A check now could read the list from before a change made a moment ago, and miss it for good.
      expect(live.listChanged.asked).toBe(0);
      await vi.advanceTimersByTimeAsync(LIST_SETTLE_MS - LIST_MAX_STALE_MS);
      await vi.waitFor(() => expect(resyncs).toBe(1));
      // The list read again, and checked once more (now the server's).
      expect(live.listChanged.asked).toBe(2);
    } finally {
      vi.useRealTimers();
      live.listChanged = { answers: [], asked: 0 };
    }
  });
});

describe('wireEditor: changes made while the server was down', () => {
  it('saves markers placed meanwhile once the live feed is back (the list read again), each added once, with no Retry', async () => {
    let resyncs = 0;
    const { host } = adminMap(() => reloadMarkers(async () => void resyncs++));
    live.onState?.('connected');
    // The server stops: the feed breaks, and two markers are placed.
    live.onState?.('reconnecting');
    adds.down = true;
    host.placeMarker(10, 20);
    host.placeMarker(30, 40);
    await flush();
    const placed = Object.keys(editor.pending);
    expect(placed).toHaveLength(2);
    expect(Object.values(editor.pending).map((p) => p.status)).toEqual(['failed', 'failed']);
    // It is back: the feed reconnects, the list is read again, and the markers are sent.
    adds.down = false;
    live.onState?.('connected');
    await vi.waitFor(() => expect(editor.pending).toEqual({}));
    expect(resyncs).toBe(1);
    expect([...adds.asked].sort()).toEqual([...placed, ...placed].sort());
  });

  it('saves a form\'s edit made meanwhile, as its Retry would: the work set aside that it holds is no longer offered', async () => {
    const { page } = adminMap(() => reloadMarkers(async () => undefined));
    live.onState?.('connected');
    live.onState?.('reconnecting');
    adds.down = true;
    const base = page.markers.get('m1')!;
    const draft = { ...base, name: 'Mine' };
    await saveMarker(draft);
    // The form was closed meanwhile: its work is set aside ("Back to them").
    popup.setAside = { uid: 'm1', snapshot: base, draft };
    expect(editor.pending.m1?.status).toBe('failed');
    adds.down = false;
    live.onState?.('connected');
    await vi.waitFor(() => expect(editor.pending).toEqual({}));
    expect(updates).toEqual([expect.objectContaining({ uid: 'm1', name: 'Mine' })]);
    expect(popup.setAside).toBeNull();
  });
});

describe('wireEditor: a marker deleted by another admin while it is dragged', () => {
  it('makes no move of it (nothing is asked of the server) and notes it for the dock, by its type', async () => {
    const { page, host, setPath } = adminMap();
    setPath('move.dragging');
    live.onChange!({ kind: 'remove', map: 'customs', uid: 'm1', version: 2, by: 'bob' });
    await flush();
    expect(page.markers.has('m1')).toBe(false);
    // Let go: the move tool asks to move it.
    host.moveMarker('m1', 300, 400);
    setPath('move.idle');
    await flush();
    expect(updates).toEqual([]);
    expect(editor.pending).toEqual({});
    expect(editor.goneWhileMoving).toEqual({ uid: 'm1', subCategory: 'Safe' });
  });

  it('still moves the dragged marker when another one is deleted meanwhile, and forgets deletes once the drag ends', async () => {
    const { host, setPath } = adminMap();
    setPath('move.dragging');
    live.onChange!({ kind: 'remove', map: 'customs', uid: 'm2', version: 2, by: 'bob' });
    await flush();
    host.moveMarker('m1', 300, 400);
    setPath('move.idle');
    await flush();
    expect(updates).toEqual([expect.objectContaining({ uid: 'm1', geometry: { x: 300, y: 400 } })]);
    expect(editor.goneWhileMoving).toBeNull();
  });

  it('says nothing of a delete heard while no marker was dragged', async () => {
    const { page, setPath } = adminMap();
    setPath('move.idle');
    live.onChange!({ kind: 'remove', map: 'customs', uid: 'm1', version: 2, by: 'bob' });
    await flush();
    expect(page.markers.has('m1')).toBe(false);
    expect(editor.goneWhileMoving).toBeNull();
  });
});

/** The map's canvas as MapCanvas renders it (jsdom lays nothing out: its box is at 0, 0). */
function mapCanvas(): HTMLCanvasElement {
  const host = document.createElement('div');
  host.className = 'map-canvas';
  const canvas = document.createElement('canvas');
  host.append(canvas);
  document.body.append(host);
  return canvas;
}

const pointer = (target: EventTarget, type: string, pointerType: string, clientX = 0, clientY = 0) =>
  target.dispatchEvent(new PointerEvent(type, { bubbles: true, clientX, clientY, pointerType, button: 0 }));

describe('wireEditor: the status bar\'s cursor', () => {
  it('a finger\'s press gives the point it pressed, kept after it lifts (it leaves the canvas) until the next touch', () => {
    const canvas = mapCanvas();
    const { engine } = adminMap();
    pointer(canvas, 'pointerdown', 'touch', 600, 500);
    // The fake engine: map = (screen − size / 2) / zoom + centre (1000×800, centre 500, 400, zoom 2).
    expect(editor.cursor).toEqual({ mapX: 550, mapY: 450, screenX: 600, screenY: 500 });
    pointer(canvas, 'pointerup', 'touch', 600, 500);
    engine.emit('pointerleave', undefined);
    expect(editor.cursor).toEqual({ mapX: 550, mapY: 450, screenX: 600, screenY: 500 });
    pointer(canvas, 'pointerdown', 'touch', 700, 300);
    expect(editor.cursor).toEqual({ mapX: 600, mapY: 350, screenX: 700, screenY: 300 });
    // A pen (no hover either) too.
    pointer(canvas, 'pointerdown', 'pen', 500, 400);
    engine.emit('pointerleave', undefined);
    expect(editor.cursor).toMatchObject({ mapX: 500, mapY: 400 });
  });

  it('a mouse\'s cursor follows its moves and goes when it leaves the map, as before; a press elsewhere is not the map\'s', () => {
    const canvas = mapCanvas();
    const { engine } = adminMap();
    pointer(canvas, 'pointerdown', 'touch', 600, 500);
    pointer(canvas, 'pointerover', 'mouse', 10, 10);
    engine.emit('pointermove', { mapX: 1, mapY: 2, screenX: 10, screenY: 10 });
    expect(editor.cursor).toEqual({ mapX: 1, mapY: 2, screenX: 10, screenY: 10 });
    pointer(canvas, 'pointerdown', 'mouse', 10, 10);
    expect(editor.cursor).toEqual({ mapX: 1, mapY: 2, screenX: 10, screenY: 10 });
    engine.emit('pointerleave', undefined);
    expect(editor.cursor).toBeNull();
    pointer(document.body, 'pointerdown', 'touch', 600, 500);
    expect(editor.cursor).toBeNull();
  });
});

describe('wireEditor: a marker as the selection in edit and move', () => {
  it('the marker opened in edit is the selection (`marker:{uid}`), and no longer once its popup closes', async () => {
    adminMap();
    toggleEditMode();
    selectMarker('m1');
    await flush();
    expect(editor.selectedShape).toBe('marker:m1');
    selectMarker(null);
    await flush();
    expect(editor.selectedShape).toBeNull();
  });

  it('the marker being dragged in move is the selection, from the press; what the tool lets go of has the last word', async () => {
    const canvas = mapCanvas();
    const { engine, host, setPath } = adminMap();
    // m1 drawn at screen 600, 500; m2 far from it.
    engine.markerStates = () => [
      { ...state('m1', 'Safe'), x: 550, y: 450 },
      { ...state('m2', 'Marker'), x: 900, y: 900 },
    ];
    toggleMoveMode();
    await flush();
    pointer(canvas, 'pointerdown', 'mouse', 604, 497);
    setPath('move.dragging');
    expect(editor.selectedShape).toBe('marker:m1');
    host.moveMarker('m2', 300, 400);
    expect(editor.selectedShape).toBe('marker:m2');
    setPath('move.idle');
    await flush();
    expect(editor.selectedShape).toBe('marker:m2');
  });

  it('a shape grabbed in move stays the selection (its press selected it)', async () => {
    const canvas = mapCanvas();
    const { engine, host, setPath } = adminMap();
    engine.markerStates = () => [{ ...state('m1', 'Safe'), x: 550, y: 450 }];
    toggleMoveMode();
    await flush();
    pointer(canvas, 'pointerdown', 'mouse', 600, 500);
    host.selectShape('shape-1');
    setPath('move.dragging');
    expect(editor.selectedShape).toBe('shape-1');
  });
});

describe('wireEditor: the saved points on the map', () => {
  const lastGuides = (engine: ReturnType<typeof adminMap>['engine']) =>
    engine.calls.filter((c) => c.method === 'setGuides').at(-1)?.args[0] as { id: string; type: string; geometry: { x: number; y: number } }[];

  it('draws a dot at each point and its label up and to the right, beside it at every zoom', async () => {
    const { engine } = adminMap();
    toggleRecording();
    togglePointsShown();
    toggleCoordsShown();
    addRecordedPoint(100, 200);
    await flush();
    let guides = lastGuides(engine);
    expect(guides.map((g) => g.type)).toEqual(['poly', 'text']);
    expect(guides[0].geometry).toMatchObject({ x: 100, y: 200 });
    const at2 = guides[1].geometry;
    expect(at2.x).toBeGreaterThan(100);
    expect(at2.y).toBeLessThan(200);
    // Zoomed in 4× (from 2): the label is as far from its dot on screen, so half as far in map pixels.
    engine.setView({ zoom: 4 });
    engine.emit('camerachange', { x: 500, y: 400, zoom: 4 });
    guides = lastGuides(engine);
    expect(guides[1].geometry.x - 100).toBeCloseTo((at2.x - 100) / 2, 6);
    expect(guides[1].geometry.y - 200).toBeCloseTo((at2.y - 200) / 2, 6);
  });
});
