/**
 * A reload of the tab brings back the map view (docs/DECISIONS.md "A reload keeps the map
 * view"): the level, the camera and the followed quests, kept per tab and per map in
 * `map:view:{mapId}` (the test's in-memory storage stands for sessionStorage). A "reload" here
 * is the page unmounted, the page's state reset, and the page rendered again at an address.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetLookups } from '../../state/items';
import { mapView } from '../../state/mapView';
import { resetPopup } from '../../state/popup';
import { quests, resetQuests } from '../../state/quests';
import { engines } from './testing/engineModuleMock';
import type { FakeEngine } from './testing/fakeEngine';
import { createLocalMarkerSource } from './testing/localMarkerSource';
import { TEST_API_BASE as BASE } from './testing/mapApi';
import { useMapPage, useMemoryStorage } from './testing/mapPageTest';
import { renderRoute } from './testing/renderRoute';
import { CAMERA_IDLE_MS } from './useRememberedView';

vi.mock('../../engine/index', () => import('./testing/engineModuleMock'));
vi.mock('./markerSource', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./markerSource')>()),
  createMarkerSource: () => createLocalMarkerSource(),
}));

const questList = ['q-1', 'q-4'].map((uid) => ({ uid, name: `Quest ${uid}`, ruName: `Квест ${uid}`, trader: 'Prapor', requiredForKappa: false, requiredForLightkeeper: false, wikiUrl: '' }));
const markerList = [
  { uid: 'm-safe', map: 'factory', category: 'Loot', subCategory: 'Safe', level: 1, geometry: { x: 500, y: 400 }, name: 'Office safe' },
  { uid: 'm-exit', map: 'factory', category: 'Extractions', subCategory: 'PMC Extraction', level: 2, geometry: { x: 1500, y: 2600 }, name: 'Gate 3' },
  { uid: 'm-note', map: 'factory', category: 'Quests', subCategory: 'Quest', level: 1, geometry: { x: 900, y: 700 }, name: 'Hidden note', questUid: 'q-4' },
];

const server = useMapPage({ markers: markerList, quests: questList });
const storage = useMemoryStorage();
const KEY = 'map:view:factory';

function resetPage() {
  resetPopup();
  resetQuests();
  resetLookups();
}
beforeEach(resetPage);
afterEach(() => vi.restoreAllMocks());

const stored = () => JSON.parse(storage().data.get(KEY) ?? '{}') as Record<string, unknown>;

/** The map page at `path`, its engine started and given its markers. */
async function openPage(path: string, strict = false) {
  const before = engines.length;
  const view = renderRoute(path, { strict });
  await waitFor(() => expect(engines[before]?.columns ?? null).not.toBeNull());
  const engine = engines[before];
  act(() => engine.emit('ready', undefined));
  await waitFor(() => expect(window.__map?.ready).toBe(true));
  return { ...view, engine };
}

/** As a reload does: the page goes with its state, and comes back at `path`. */
async function reload(unmount: () => void, path: string, strict = false) {
  unmount();
  resetPage();
  return openPage(path, strict);
}

/** The engine's camera moved by the user: the fake's view set, and the engine's event sent. */
function moveCamera(engine: FakeEngine, view: { x: number; y: number; zoom: number }) {
  act(() => {
    engine.setView(view);
    engine.emit('camerachange', engine.camera());
  });
}

describe('a reload keeps the map view', () => {
  it('brings back the level and the camera', async () => {
    const { engine, unmount } = await openPage('/map/factory');
    expect(engine.camera()).toEqual({ x: 500, y: 400, zoom: 2 });
    await userEvent.click(screen.getByRole('radio', { name: 'Basement' }));
    await waitFor(() => expect(stored().level).toBe(-1));
    moveCamera(engine, { x: 1800, y: 900, zoom: 3.5 });
    await waitFor(() => expect(stored().camera).toEqual({ x: 1800, y: 900, zoom: 3.5 }), { timeout: 3000 });

    const again = await reload(unmount, '/map/factory');
    expect(again.engine.camera()).toEqual({ x: 1800, y: 900, zoom: 3.5 });
    expect(window.__map?.camera()).toEqual({ x: 1800, y: 900, zoom: 3.5 });
    expect(window.__map?.level()).toBe(-1);
    expect(again.engine.level).toBe(-1);
    expect(screen.getByRole('radio', { name: 'Basement' })).toBeChecked();
  });

  it('brings them back under StrictMode too', async () => {
    storage().data.set(KEY, JSON.stringify({ level: 2, camera: { x: 1000, y: 2000, zoom: 5 } }));
    await openPage('/map/factory', true);
    expect(window.__map?.level()).toBe(2);
    // StrictMode may start an engine twice: the one in use starts at the remembered camera.
    expect(window.__map?.camera()).toEqual({ x: 1000, y: 2000, zoom: 5 });
  });

  it('keeps the level through Try again, which opens the map once more', async () => {
    storage().data.set(KEY, JSON.stringify({ level: 2 }));
    server.use(http.get(`${BASE}/tiles/factory/manifest.json`, () => HttpResponse.error()));
    renderRoute('/map/factory');
    const alert = await screen.findByRole('alert');
    expect(mapView.level).toBe(2);
    server.resetHandlers();
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(engines).toHaveLength(1));
    await waitFor(() => expect(engines[0].level).toBe(2));
    expect(mapView.level).toBe(2);
  });

  it('writes the camera once it is still, not per frame, and at once when the page is hidden', async () => {
    const { engine } = await openPage('/map/factory');
    const writes = vi.spyOn(storage(), 'setItem');
    for (let i = 1; i <= 20; i += 1) moveCamera(engine, { x: 500 + i * 10, y: 400, zoom: 2 });
    expect(stored().camera).toBeUndefined();
    await act(() => new Promise((resolve) => setTimeout(resolve, CAMERA_IDLE_MS + 200)));
    expect(stored().camera).toEqual({ x: 700, y: 400, zoom: 2 });
    expect(writes.mock.calls.filter(([key]) => key === KEY)).toHaveLength(1);

    moveCamera(engine, { x: 900, y: 1000, zoom: 1 });
    act(() => void window.dispatchEvent(new Event('pagehide')));
    expect(stored().camera).toEqual({ x: 900, y: 1000, zoom: 1 });
  });

  it('lets a ?obj= link win over the remembered level and camera', async () => {
    storage().data.set(KEY, JSON.stringify({ level: -1, camera: { x: 3000, y: 3000, zoom: 8 } }));
    const { engine } = await openPage('/map/factory?obj=m-exit');
    await screen.findByRole('dialog', { name: 'Gate 3' });
    await waitFor(() => expect(engine.toScreen(1500, 2600).x).toBeCloseTo(window.innerWidth / 2, 6));
    expect(engine.camera().zoom).not.toBe(8);
    expect(window.__map?.level()).toBe(2);
  });

  it('follows the quest of a link again after its popup was closed and the page reloaded', async () => {
    const { router, unmount } = await openPage('/map/factory?quest=q-4&obj=m-note');
    await screen.findByRole('dialog', { name: 'Hidden note' });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(quests.selected).toEqual(['q-4']);

    // The address the reload opens has no quest (spec §4); the tab remembers it.
    const again = await reload(unmount, '/map/factory');
    expect(quests.selected).toEqual(['q-4']);
    expect(window.__map?.selectedQuests()).toEqual(['q-4']);
    // Followed, so named by the address again.
    await waitFor(() => expect(new URLSearchParams(again.router.state.location.search).get('quest')).toBe('q-4'));
  });

  it('lets ?quest= win over the remembered quests', async () => {
    storage().data.set(KEY, JSON.stringify({ quests: ['q-4'] }));
    await openPage('/map/factory?quest=q-1');
    expect(quests.selected).toEqual(['q-1']);
    expect(stored().quests).toEqual(['q-1']);
  });

  it('ignores bad stored values without an error', async () => {
    const errors = vi.spyOn(console, 'error');
    storage().data.set(KEY, JSON.stringify({ level: 7, camera: { x: 100, y: 100, zoom: 99 }, quests: 'q-4' }));
    const { engine } = await openPage('/map/factory');
    expect(window.__map?.level()).toBe(1);
    expect(engine.camera()).toEqual({ x: 500, y: 400, zoom: 2 });
    expect(quests.selected).toEqual([]);
    storage().data.set(KEY, '{not json');
    resetPage();
    expect(errors).not.toHaveBeenCalled();
  });

  it('leaves the stream overlay alone: nothing brought back, nothing written', async () => {
    storage().data.set(KEY, JSON.stringify({ level: -1, camera: { x: 1800, y: 900, zoom: 3.5 } }));
    renderRoute('/map/factory?overlay=1');
    await waitFor(() => expect(engines[0]?.columns ?? null).not.toBeNull());
    const engine = engines[0];
    expect(mapView.level).toBe(1);
    expect(engine.camera()).not.toEqual({ x: 1800, y: 900, zoom: 3.5 });
    moveCamera(engine, { x: 100, y: 100, zoom: 1 });
    act(() => void window.dispatchEvent(new Event('pagehide')));
    expect(stored()).toEqual({ level: -1, camera: { x: 1800, y: 900, zoom: 3.5 } });
  });
});
