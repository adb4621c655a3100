/**
 * The map page in component tests, with the fake engine (engineModuleMock.ts) and the API set up
 * by mapPageTest.ts: engineWithMarkers() waits for the first engine to get its markers;
 * renderReadyMap(path) renders the page and has the map drawn.
 */
import { act, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import { engines } from './engineModuleMock';
import type { FakeEngine } from './fakeEngine';
import { renderRoute } from './renderRoute';

/** The first fake engine, once the page has given it the markers. */
export async function engineWithMarkers(): Promise<FakeEngine> {
  await waitFor(() => expect(engines[0]?.columns ?? null).not.toBeNull());
  return engines[0];
}

/** The map page at `path` with its markers in the engine and the map drawn (window.__map ready). */
export async function renderReadyMap(path = '/map/factory') {
  const view = renderRoute(path);
  const engine = await engineWithMarkers();
  act(() => engine.emit('ready', undefined));
  await waitFor(() => expect(window.__map?.ready).toBe(true));
  return { ...view, engine };
}
