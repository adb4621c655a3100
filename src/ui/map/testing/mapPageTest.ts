/**
 * The set-up component tests share (vitest hooks, one call each, at the top of a test file):
 *
 *   const server = useMapPage({ markers: markerList, quests: [questQ1] });
 *   // …a test that varies an answer: server.use(http.get(`${TEST_API_BASE}/…`, …))
 *
 * - useTestServer(...handlers): an msw server for the test API (TEST_API_BASE, which the app's
 *   client is pointed at), listening while the file runs, an unhandled request an error; a
 *   test's server.use overrides are dropped after it.
 * - useMapPageServer(fixture): the same, with the map page's API (mapApi.ts) as its handlers.
 * - useMemoryStorage(): each test on a fresh in-memory storage, localStorage untouched.
 * - useFakeEngines(): each test starts with no fake engine (engineModuleMock.ts).
 * - useMapPage(fixture): the three a map page test needs, composed.
 * - setSignedInHint(on): the signed-in hint cookie set or cleared, as the real server does.
 *
 * Rendering the map page: readyMap.ts (kept apart: it brings in the app's routes).
 *
 * Each file keeps its own further resets (quests, session, language…) in its own hooks. The
 * hooks here are registered first, so (vitest's hooks run as a stack) their beforeEach run
 * before the file's, their afterEach after the file's.
 */
import type { RequestHandler } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { setApiBase } from '../../../api/client';
import { memoryStorage, setStorageBackend } from '../../../state/storage';
import { resetEngines } from './engineModuleMock';
import { mapApiHandlers, setHint, TEST_API_BASE, type MapApiFixture } from './mapApi';

export function useTestServer(...handlers: RequestHandler[]): SetupServer {
  const server = setupServer(...handlers);
  beforeAll(() => {
    server.listen({ onUnhandledRequest: 'error' });
    setApiBase(TEST_API_BASE);
  });
  afterEach(() => server.resetHandlers());
  afterAll(() => {
    server.close();
    setApiBase('');
  });
  return server;
}

export function useMapPageServer(fixture: MapApiFixture): SetupServer {
  return useTestServer(...mapApiHandlers(fixture));
}

/** Returns the current test's storage (its `data` to seed or read). */
export function useMemoryStorage(): () => ReturnType<typeof memoryStorage> {
  let storage = memoryStorage();
  beforeEach(() => {
    storage = memoryStorage();
    setStorageBackend(storage);
  });
  afterEach(() => setStorageBackend(null));
  return () => storage;
}

export function useFakeEngines(): void {
  beforeEach(() => resetEngines());
}

export function useMapPage(fixture: MapApiFixture): SetupServer {
  const server = useMapPageServer(fixture);
  useMemoryStorage();
  useFakeEngines();
  return server;
}

/** The signed-in hint cookie set or cleared (mapApi.ts's, which its session answers set too). */
export const setSignedInHint: (on: boolean) => void = setHint;
