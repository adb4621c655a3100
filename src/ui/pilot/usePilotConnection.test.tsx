import '../../i18n';
import { act, cleanup, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeEventSource } from '../../../tests/support/fake-event-source';
import { setApiBase } from '../../api/client';
import type { MapId } from '../../domain/maps';
import { pilot, PILOT_CODE_KEY, PILOT_GONE_KEY, resetPilot } from '../../state/pilot';
import { player, setPlayerPosition } from '../../state/player';
import { memoryStorage, readStored, setStorageBackend, writeStored } from '../../state/storage';
import { usePilotConnection } from './usePilotConnection';

const REMEMBERED = 'ABCDE23456';
const LINKED = 'FGHJK78923';

function MapStandIn({ map }: { map: MapId }) {
  usePilotConnection(map);
  return <p>map page</p>;
}

function renderMap(entry: string) {
  const router = createMemoryRouter(
    [
      { path: '/map/customs', element: <MapStandIn map="customs" /> },
      { path: '/map/woods', element: <MapStandIn map="woods" /> },
      { path: '/map/factory', element: <MapStandIn map="factory" /> },
    ],
    { initialEntries: [entry] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('usePilotConnection (the map page follows a code)', () => {
  let fetches: string[];

  beforeEach(() => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    fetches = [];
    vi.stubGlobal('fetch', async (url: string) => {
      fetches.push(String(url));
      return new Response(JSON.stringify({ error: 'Not Found', message: 'no pairing' }), { status: 404, headers: { 'content-type': 'application/json' } });
    });
    setApiBase('http://api.test');
    setStorageBackend(memoryStorage());
  });

  afterEach(() => {
    resetPilot();
    setStorageBackend(null);
    vi.unstubAllGlobals();
  });

  it('?connection=CODE follows the code, remembers it and leaves the address', async () => {
    const router = renderMap(`/map/customs?connection=${LINKED}&layer=2#x`);
    await vi.waitFor(() => expect(router.state.location.search).toBe('?layer=2'));
    expect(router.state.location.hash).toBe('#x');
    expect(pilot.code).toBe(LINKED);
    expect(readStored(PILOT_CODE_KEY)).toBe(LINKED);
    expect(FakeEventSource.last().url).toBe(`http://api.test/api/be/pilot/${LINKED}/events`);
  });

  it('a ?connection= that is no code is said, leaves the address, and the remembered code is not followed', async () => {
    writeStored(PILOT_CODE_KEY, REMEMBERED);
    const router = renderMap('/map/customs?connection=hello-world');
    await vi.waitFor(() => expect(router.state.location.search).toBe(''));
    expect(pilot.linkProblem).toBe('hello-world');
    expect(pilot.status).toBe('off');
    expect(FakeEventSource.instances).toHaveLength(0);
    expect(readStored(PILOT_CODE_KEY)).toBe(REMEMBERED);
    // Nor on the next map of the same page.
    await act(() => router.navigate('/map/woods'));
    expect(FakeEventSource.instances).toHaveLength(0);
    expect(pilot.linkProblem).toBe('hello-world');
  });

  it('the stream overlay opened again at its first address (OBS reloads it) goes to the player\'s map and shows them', async () => {
    vi.stubGlobal('sessionStorage', memoryStorage());
    const overlay = `/map/customs?overlay=1&connection=${LINKED}&zoom=4&scale=4`;
    const feed = (map: string) => {
      const es = FakeEventSource.last();
      es.open();
      es.send({ type: 'map', data: { map }, at: 5 }, 'pilot');
      es.send({ type: 'position', data: { x: 10, y: 20, z: 1, look: null }, at: 6 }, 'pilot');
    };
    let router = renderMap(overlay);
    act(() => feed('factory'));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/map/factory'));
    expect(router.state.location.search).toBe('?overlay=1&zoom=4&scale=4');
    // The tab loads the overlay's address again (page state gone, the tab's sessionStorage kept).
    cleanup();
    resetPilot();
    setPlayerPosition(null);
    router = renderMap(overlay);
    act(() => feed('factory'));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/map/factory'));
    expect(router.state.location.search).toBe('?overlay=1&zoom=4&scale=4');
    expect(player.position).toBeNull();
    act(() => feed('factory'));
    expect(player.position).toMatchObject({ x: 10, y: 20 });
    // A normal map page in the same tab stays where it was opened (its menu offers Go to Factory).
    cleanup();
    resetPilot();
    router = renderMap(`/map/customs?connection=${LINKED}`);
    act(() => feed('factory'));
    await act(async () => {});
    expect(router.state.location.pathname).toBe('/map/customs');
  });

  it('a remembered code the server said is gone is shown gone on every map page, with no request', async () => {
    writeStored(PILOT_CODE_KEY, REMEMBERED);
    writeStored(PILOT_GONE_KEY, REMEMBERED);
    const router = renderMap('/map/customs');
    expect(pilot.code).toBe(REMEMBERED);
    expect(pilot.status).toBe('gone');
    await act(() => router.navigate('/map/woods'));
    expect(pilot.status).toBe('gone');
    expect(FakeEventSource.instances).toHaveLength(0);
    expect(fetches).toHaveLength(0);
  });
});
