import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Marker } from '../../domain/marker';
import { i18n, setLanguage } from '../../i18n';
import { filters, loadFilters, setCategoryHidden, setSubCategoryHidden } from '../../state/filters';
import { closeMap, mapView, openMap, selectMarker } from '../../state/mapView';
import { popup, resetPopup, showPopupFor, startEdit } from '../../state/popup';
import { setSessionUser } from '../../state/session';
import { resetSettings, updateSettings } from '../../state/settings';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { createEngineHandle } from './automation';
import { createFakeEngine } from './testing/fakeEngine';
import { createLocalMarkerSource } from './testing/localMarkerSource';
import { wireEngine } from './wireEngine';
import { Camera } from '../../engine/camera';
import { MAPS } from '../../domain/maps';
import { mapToGame } from '../../domain/transform';
import { setPlayerPosition } from '../../state/player';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function marker(uid: string, category: string, subCategory: string, level = 1) {
  return { uid, map: 'factory', category, subCategory, level, geometry: { x: 10, y: 20 }, name: uid, name_l10n: { ru: `ру-${uid}` } };
}
/** A marker as the server stores it (every field), for the sink. */
const stored = (m: ReturnType<typeof marker>): Marker => ({ ...m, map: 'factory', desc: '', desc_l10n: {}, imgs: [], itemsUid: [] });
const list = [marker('safe', 'Loot', 'Safe'), marker('exit', 'Extractions', 'PMC Extraction', 2), marker('key', 'Keys', 'Key Spawn', -1)];
const bytes = () => new TextEncoder().encode(JSON.stringify({ markers: list })).buffer as ArrayBuffer;

async function setup() {
  const engine = createFakeEngine();
  const source = createLocalMarkerSource();
  const handle = createEngineHandle();
  handle.engine = engine;
  const draws: (() => void)[] = [];
  const wiring = wireEngine({ engine, source, handle, afterDraw: (fn) => draws.push(fn) });
  const result = await source.load(bytes(), 'factory', 'en');
  return { engine, source, handle, wiring, result, draw: () => draws.splice(0).forEach((fn) => fn()) };
}

beforeEach(() => {
  setStorageBackend(memoryStorage());
  openMap('factory');
  loadFilters('factory');
});
const pro = { name: 'pro', pro: true, admin: false, questsDone: [], questsHidden: [] };

afterEach(async () => {
  closeMap();
  setSessionUser(null);
  resetSettings();
  setStorageBackend(null);
  await setLanguage('en');
});

describe('wireEngine', () => {
  it('pushes the initial view state and a pro user\'s marker size and labels to the engine', async () => {
    setSessionUser(pro);
    updateSettings({ markerSize: 1.5, labels: 'all' });
    const { engine, wiring } = await setup();
    expect(engine.level).toBe(1);
    expect(engine.markerScale).toBe(1.5);
    expect(engine.labelMode).toBe('all');
    expect(engine.selected).toBeNull();
    wiring.dispose();
  });

  it('hands markers over filtered, and is ready only after the engine ready event and the draw', async () => {
    setCategoryHidden('Keys', true);
    const { engine, wiring, result, handle, draw } = await setup();
    wiring.setMarkers(result);
    await settle();
    expect(engine.columns?.uids).toEqual(['safe', 'exit', 'key']);
    expect(Array.from(engine.filter!)).toEqual([0, 1]);
    expect([...handle.passing!()!]).toEqual(['safe', 'exit']);
    draw();
    expect(mapView.ready).toBe(false);
    engine.emit('ready', undefined);
    expect(mapView.ready).toBe(true);
    wiring.dispose();
    expect(mapView.ready).toBe(false);
  });

  it('re-filters in the worker when the filters change', async () => {
    const { engine, wiring, result, handle } = await setup();
    wiring.setMarkers(result);
    await settle();
    expect(engine.filter?.length).toBe(3);
    setSubCategoryHidden('Safe', true);
    await settle();
    await settle();
    expect(Array.from(engine.filter!)).toEqual([1, 2]);
    expect(handle.passing!()!.has('safe')).toBe(false);
    expect(filters.hiddenSubCategories).toEqual(['Safe']);
    wiring.dispose();
  });

  it('applies an edit to its one slot with the worker\'s filter answer, without a whole-list filter run', async () => {
    setSubCategoryHidden('Safe', true);
    const { engine, wiring, result, handle } = await setup();
    wiring.setMarkers(result);
    await settle();
    const filterRuns = () => engine.calls.filter((c) => c.method === 'setFilter').length;
    const before = filterRuns();
    await wiring.sink.upsert(stored(marker('cache', 'Loot', 'Safe')));
    await wiring.sink.upsert(stored(marker('exit', 'Extractions', 'PMC Extraction', 1)));
    await wiring.sink.remove('key');
    await settle();
    expect(filterRuns()).toBe(before);
    expect([...handle.passing!()!].sort()).toEqual(['exit']);
    setSubCategoryHidden('Safe', false);
    await settle();
    await settle();
    expect([...handle.passing!()!].sort()).toEqual(['cache', 'exit', 'safe']);
    wiring.dispose();
  });

  it('a removed marker closes its popup, unless it is open in the edit form (another admin’s delete is a conflict there)', async () => {
    const { wiring, result } = await setup();
    wiring.setMarkers(result);
    await settle();
    selectMarker('exit');
    await wiring.sink.remove('exit');
    expect(mapView.selectedUid).toBeNull();

    selectMarker('safe');
    showPopupFor('safe');
    startEdit(stored(marker('safe', 'Loot', 'Safe')));
    const revision = popup.revision;
    await wiring.sink.remove('safe');
    expect(mapView.selectedUid).toBe('safe');
    expect(popup.mode).toBe('edit');
    expect(popup.revision).toBe(revision + 1);
    resetPopup();
    wiring.dispose();
  });

  it('sets the level, the selection and the pro settings from state', async () => {
    setSessionUser(pro);
    const { engine, wiring } = await setup();
    mapView.level = -1;
    selectMarker('exit');
    updateSettings({ markerSize: 2, labels: 'hover' });
    await settle();
    expect(engine.level).toBe(-1);
    expect(engine.selected).toBe('exit');
    expect(engine.markerScale).toBe(2);
    expect(engine.labelMode).toBe('hover');
    wiring.dispose();
  });

  it('gives visitors the default size and labels whatever is stored, and applies them on signing in', async () => {
    updateSettings({ markerSize: 2, labels: 'hover' });
    const { engine, wiring } = await setup();
    expect(engine.markerScale).toBe(1);
    expect(engine.labelMode).toBe('auto');
    setSessionUser(pro);
    await settle();
    expect(engine.markerScale).toBe(2);
    expect(engine.labelMode).toBe('hover');
    setSessionUser(null);
    await settle();
    expect(engine.markerScale).toBe(1);
    wiring.dispose();
  });

  it('turns engine events into actions', async () => {
    const { engine, wiring } = await setup();
    engine.emit('markerclick', { uid: 'safe' });
    expect(mapView.selectedUid).toBe('safe');
    engine.emit('mapclick', { mapX: 1, mapY: 2 });
    expect(mapView.selectedUid).toBeNull();
    engine.emit('levelstep', { direction: 1 });
    expect(mapView.level).toBe(2);
    engine.emit('levelstep', { direction: -1 });
    engine.emit('levelstep', { direction: -1 });
    engine.emit('levelstep', { direction: -1 });
    expect(mapView.level).toBe(-1);
    wiring.dispose();
  });

  it('relabels markers when the language changes', async () => {
    const { engine, wiring, result } = await setup();
    wiring.setMarkers(result);
    await settle();
    await setLanguage('ru');
    await settle();
    expect(engine.columns?.labels).toEqual(['ру-safe', 'ру-exit', 'ру-key']);
    expect(engine.filter?.length).toBe(3);
    wiring.dispose();
  });

  it('reads the labels again when a live change altered the slots while they were read', async () => {
    const { engine, source, wiring, result } = await setup();
    wiring.setMarkers(result);
    await settle();
    const relabel = source.relabel.bind(source);
    let calls = 0;
    // The first answer was computed before a slot came or went: one label too few.
    source.relabel = async (lang) => {
      calls += 1;
      const labels = await relabel(lang);
      return calls === 1 ? labels.slice(1) : labels;
    };
    await setLanguage('ru');
    await settle();
    await settle();
    expect(calls).toBe(2);
    expect(engine.columns?.labels).toEqual(['ру-safe', 'ру-exit', 'ру-key']);
    wiring.dispose();
  });

  it('stops listening after dispose', async () => {
    const { engine, wiring, result } = await setup();
    wiring.setMarkers(result);
    await settle();
    wiring.dispose();
    expect(engine.listenerCount()).toBe(0);
    const calls = engine.calls.length;
    setCategoryHidden('Loot', true);
    mapView.level = 2;
    await i18n.changeLanguage('ru');
    await settle();
    expect(engine.calls.length).toBe(calls);
  });

  it('stays quiet when the worker is closed under a pending filter, and reports a crash', async () => {
    const { wiring, result, source } = await setup();
    const errors: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      const { MarkerWorkerError } = await import('./markerSource');
      source.filter = async () => {
        throw new MarkerWorkerError('closed', 'The marker worker was closed');
      };
      wiring.setMarkers(result);
      await settle();
      expect(errors).toEqual([]);
      source.filter = async () => {
        throw new MarkerWorkerError('failed', 'The marker worker stopped: boom');
      };
      setCategoryHidden('Loot', true);
      await settle();
      await settle();
      expect(errors).toHaveLength(1);
      expect(String(errors[0][1])).toMatch(/boom/);
    } finally {
      console.error = original;
      wiring.dispose();
    }
  });

  it('applies the newest filter when answers arrive out of order', async () => {
    const { engine, wiring, result, source } = await setup();
    const slow = source.filter;
    let first = true;
    source.filter = async (query) => {
      if (first) {
        first = false;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return slow(query);
    };
    wiring.setMarkers(result);
    setCategoryHidden('Loot', true);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(Array.from(engine.filter!)).toEqual([1, 2]);
    expect(engine.columns?.uids.length).toBe(3);
    wiring.dispose();
  });
});

describe('wireEngine: the stream overlay follows the player from the first position', () => {
  /** The fake engine with the real camera's clamp, on a 1280×720 canvas (the map page's limits when no insets are set). */
  function clampingEngine(map = MAPS.customs) {
    const engine = createFakeEngine({ width: 1280, height: 720 });
    const camera = new Camera(map, { width: 1280, height: 720 });
    camera.set({ zoom: 1.5 });
    engine.camera = () => camera.state;
    engine.setView = (view) => camera.set(view);
    engine.setCoveredInsets = (insets, from) => camera.setInsets(insets, from);
    engine.toScreen = (x, y) => camera.toScreen(x, y);
    engine.toMap = (x, y) => camera.toMap(x, y);
    return engine;
  }
  /** The canvas of a 1280×720 overlay, with nothing over it; `fire` is the page's next layout. */
  function overlayCanvas() {
    let listener: (() => void) | null = null;
    return {
      measure: () => ({ width: 1280, height: 720, covers: [] }),
      watch: (onChange: () => void) => {
        listener = onChange;
        return () => (listener = null);
      },
      fire: () => listener?.(),
    };
  }
  const nearCorner = { mapX: 4350, mapY: 3150 };
  const positionAt = (point: { mapX: number; mapY: number }) => {
    const game = mapToGame(MAPS.customs.transform, point);
    return { x: game.gameX, y: game.gameZ, z: 0, look: 0 };
  };

  beforeEach(() => {
    closeMap();
    openMap('customs');
    loadFilters('customs');
  });
  afterEach(() => setPlayerPosition(null));

  it('centres the feed\'s last position near the map\'s edge at once, before the page\'s first layout is reported', () => {
    setPlayerPosition(positionAt(nearCorner));
    const engine = clampingEngine();
    const canvas = overlayCanvas();
    const handle = createEngineHandle();
    const wiring = wireEngine({ engine, source: createLocalMarkerSource(), handle, followPlayer: true, canvasArea: canvas });
    const view = engine.camera();
    expect(view.x).toBeCloseTo(nearCorner.mapX, 3);
    expect(view.y).toBeCloseTo(nearCorner.mapY, 3);
    canvas.fire();
    expect(engine.camera().x).toBeCloseTo(nearCorner.mapX, 3);
    wiring.dispose();
  });

  it('centres the player again when the insets change (a view clamped before them is moved back)', async () => {
    const engine = clampingEngine();
    let area: { width: number; height: number; covers: [] } | null = null; // no laid-out canvas yet
    let listener: (() => void) | null = null;
    const wiring = wireEngine({
      engine, source: createLocalMarkerSource(), handle: createEngineHandle(), followPlayer: true,
      canvasArea: { measure: () => area, watch: (fn) => ((listener = fn), () => (listener = null)) },
    });
    setPlayerPosition(positionAt(nearCorner));
    await settle();
    // Clamped with the map page's limits: the player is off the middle.
    expect(engine.camera().x).toBeLessThan(nearCorner.mapX - 100);
    area = { width: 1280, height: 720, covers: [] };
    listener!();
    expect(engine.camera().x).toBeCloseTo(nearCorner.mapX, 3);
    expect(engine.camera().y).toBeCloseTo(nearCorner.mapY, 3);
    wiring.dispose();
  });

  it('a map page (not following) reads no layout while it wires, unless a position waits to be framed with its covers', () => {
    const wire = () => {
      let measured = 0;
      const wiring = wireEngine({
        engine: clampingEngine(), source: createLocalMarkerSource(), handle: createEngineHandle(),
        canvasArea: { measure: () => (measured++, { width: 1280, height: 720, covers: [] }), watch: () => () => {} },
      });
      wiring.dispose();
      return measured;
    };
    expect(wire()).toBe(0);
    // A #pos= link's position: framed with the covers before the first frame (keepFramed.ts).
    setPlayerPosition(positionAt(nearCorner));
    expect(wire()).toBe(1);
  });
});
