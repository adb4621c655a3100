import '../../i18n';
import { act, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeEventSource } from '../../../tests/support/fake-event-source';
import { setApiBase } from '../../api/client';
import type { MapId } from '../../domain/maps';
import { pilot, PILOT_CODE_KEY, PILOT_GONE_KEY, resetPilot } from '../../state/pilot';
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
