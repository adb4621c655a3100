/**
 * The marker popup on the real map page with a fake engine: a marker click opens it, the pointer
 * over it stops wheel zoom through the wiring, `?obj=` centres the engine on the marker, and
 * `__map.popup()` follows it.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetLookups } from '../../state/items';
import { resetPopup } from '../../state/popup';
import { quests, resetQuests, toggleQuest } from '../../state/quests';
import { mapView } from '../../state/mapView';
import type { FakeEngine } from '../map/testing/fakeEngine';
import { createLocalMarkerSource } from '../map/testing/localMarkerSource';
import { routes } from '../routes';
import { useMapPage } from '../map/testing/mapPageTest';
import { engines } from '../map/testing/engineModuleMock';

vi.mock('../../engine/index', () => import('../map/testing/engineModuleMock'));
vi.mock('../map/markerSource', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../map/markerSource')>()),
  createMarkerSource: () => createLocalMarkerSource(),
}));

const markerList = [
  { uid: 'm-safe', map: 'factory', category: 'Loot', subCategory: 'Safe', level: 1, geometry: { x: 500, y: 400 }, name: 'Office safe', desc: 'Behind the desk' },
  { uid: 'm-exit', map: 'factory', category: 'Extractions', subCategory: 'PMC Extraction', level: 2, geometry: { x: 1500, y: 2600 }, name: 'Gate 3' },
];

const questUids = ['q-1', 'q-2', 'q-3', 'q-4'];
const questList = questUids.map((uid) => ({ uid, name: `Quest ${uid}`, ruName: `Квест ${uid}`, trader: 'Prapor', requiredForKappa: false, requiredForLightkeeper: false, wikiUrl: '' }));
const questMarker = { uid: 'm-note', map: 'factory', category: 'Quests', subCategory: 'Quest', level: 1, geometry: { x: 900, y: 700 }, name: 'Hidden note', questUid: 'q-4' };

useMapPage({ markers: [...markerList, questMarker], quests: questList });

beforeEach(() => {
  resetPopup();
  resetQuests();
  resetLookups();
});

async function readyMap(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  await waitFor(() => expect(engines).toHaveLength(1));
  const engine = engines[0];
  act(() => engine.emit('ready', undefined));
  await waitFor(() => expect(window.__map?.ready).toBe(true));
  return { router, engine };
}

const zoomCalls = (engine: FakeEngine) => engine.calls.filter((c) => c.method === 'setZoomEnabled').map((c) => c.args[0]);

describe('marker popup on the map page', () => {
  it('opens on a marker click, and the map does not zoom while the pointer is over it', async () => {
    const { engine } = await readyMap('/map/factory');
    expect(window.__map?.popup()).toBeNull();
    act(() => engine.emit('markerclick', { uid: 'm-safe' }));
    const dialog = await screen.findByRole('dialog', { name: 'Office safe' });
    expect(dialog).toHaveTextContent('Behind the desk');
    expect(window.__map?.popup()).toBe('m-safe');
    expect(engine.selected).toBe('m-safe');

    await userEvent.hover(dialog);
    await waitFor(() => expect(zoomCalls(engine).at(-1)).toBe(false));
    await userEvent.unhover(dialog);
    await waitFor(() => expect(zoomCalls(engine).at(-1)).toBe(true));

    act(() => engine.emit('mapclick', { mapX: 1, mapY: 1 }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Office safe' })).toBeNull());
    expect(window.__map?.popup()).toBeNull();
  });

  it('?obj= opens the popup with the marker in the middle of the map above it, on its level', async () => {
    const { engine, router } = await readyMap('/map/factory?obj=m-exit');
    await screen.findByRole('dialog', { name: 'Gate 3' });
    // Across the window's middle, and above it: the popup at the bottom leaves the upper part free.
    await waitFor(() => expect(engine.toScreen(1500, 2600).x).toBeCloseTo(window.innerWidth / 2, 6));
    expect(engine.toScreen(1500, 2600).y).toBeLessThan(window.innerHeight / 2 - 50);
    expect(engine.toScreen(1500, 2600).y).toBeGreaterThan(0);
    expect(engine.level).toBe(2);
    expect(window.__map?.popup()).toBe('m-exit');
    expect(router.state.location.search).toBe('?obj=m-exit');

    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(window.__map?.popup()).toBeNull();
  });

  it('?obj= of a quest marker while 3 quests are followed: the marker shows, its quest in place of the oldest, no limit notice', async () => {
    const { router } = await readyMap('/map/factory?quest=q-1,q-2,q-3&obj=m-note');
    await screen.findByRole('dialog', { name: 'Hidden note' });
    await waitFor(() => expect(quests.selected).toEqual(['q-2', 'q-3', 'q-4']));
    expect(screen.queryByRole('dialog', { name: 'Quest limit' })).toBeNull();
    expect(quests.limitNotice).toBe(false);
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('quest')).toBe('q-2,q-3,q-4'));
    expect(new URLSearchParams(router.state.location.search).get('obj')).toBe('m-note');
  });

  it('the address follows the open popup; closing it clears obj and quest (spec §4), the quest staying followed until the selection changes', async () => {
    const { router, engine } = await readyMap('/map/factory?obj=m-note');
    await screen.findByRole('dialog', { name: 'Hidden note' });
    const params = () => new URLSearchParams(router.state.location.search);
    await waitFor(() => expect(params().get('quest')).toBe('q-4'));
    act(() => engine.emit('markerclick', { uid: 'm-safe' }));
    await screen.findByRole('dialog', { name: 'Office safe' });
    // obj and quest are written by two hooks, one replace each: wait for both, not the first.
    await waitFor(() => expect([params().get('obj'), params().get('quest')]).toEqual(['m-safe', 'q-4']));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(mapView.selectedUid).toBeNull());
    await waitFor(() => expect(params().has('obj')).toBe(false));
    expect(params().has('quest')).toBe(false);
    expect(quests.selected).toEqual(['q-4']);
    // The next change of the followed quests puts them in the address again.
    act(() => toggleQuest('q-1'));
    await waitFor(() => expect(params().get('quest')).toBe('q-4,q-1'));
  });
});
