/**
 * The marker popup on the real map page with a fake engine: a marker click opens it, the pointer
 * over it stops wheel zoom through the wiring, `?obj=` centres the engine on the marker, and
 * `__map.popup()` follows it.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiBase } from '../../api/client';
import { resetLookups } from '../../state/items';
import { resetPopup } from '../../state/popup';
import { resetQuests } from '../../state/quests';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import type { FakeEngine } from '../map/testing/fakeEngine';
import { createLocalMarkerSource } from '../map/testing/localMarkerSource';
import { routes } from '../routes';
import { TEST_API_BASE as BASE, mapApiHandlers } from '../map/testing/mapApi';
import { engines, resetEngines } from '../map/testing/engineModuleMock';

vi.mock('../../engine/index', () => import('../map/testing/engineModuleMock'));
vi.mock('../map/markerSource', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../map/markerSource')>()),
  createMarkerSource: () => createLocalMarkerSource(),
}));

const markerList = [
  { uid: 'm-safe', map: 'factory', category: 'Loot', subCategory: 'Safe', level: 1, geometry: { x: 500, y: 400 }, name: 'Office safe', desc: 'Behind the desk' },
  { uid: 'm-exit', map: 'factory', category: 'Extractions', subCategory: 'PMC Extraction', level: 2, geometry: { x: 1500, y: 2600 }, name: 'Gate 3' },
];

const server = setupServer(...mapApiHandlers({ markers: markerList }));

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setApiBase(BASE);
});
beforeEach(() => {
  setStorageBackend(memoryStorage());
  resetEngines();
  resetPopup();
  resetQuests();
  resetLookups();
});
afterEach(() => {
  server.resetHandlers();
  setStorageBackend(null);
});
afterAll(() => {
  server.close();
  setApiBase('');
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

  it('?obj= opens the popup with the engine centred on the marker and on its level', async () => {
    const { engine, router } = await readyMap('/map/factory?obj=m-exit');
    await screen.findByRole('dialog', { name: 'Gate 3' });
    await waitFor(() => expect(engine.camera()).toMatchObject({ x: 1500, y: 2600 }));
    expect(engine.level).toBe(2);
    expect(window.__map?.popup()).toBe('m-exit');
    expect(router.state.location.search).toBe('?obj=m-exit');

    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(window.__map?.popup()).toBeNull();
  });
});
