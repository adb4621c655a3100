/**
 * src/engine/index, replaced for component tests (jsdom has no WebGL). A test file mocks the
 * engine module with this one and drives the fake engines it created:
 *
 *   vi.mock('../../engine/index', () => import('../map/testing/engineModuleMock'));
 *   import { engines } from '../map/testing/engineModuleMock';
 *
 * Each createMapEngine call adds a canvas to the container, keeps the fake engine in `engines`
 * and its options in `engineOptions`; tests empty both between cases (`resetEngines`).
 */
import { vi } from 'vitest';
import type { EngineOptions } from '../../../engine/types';
import { createFakeEngine, type FakeEngine } from './fakeEngine';

export const engines: FakeEngine[] = [];
export const engineOptions: EngineOptions[] = [];

export const createMapEngine = vi.fn(async (options: EngineOptions) => {
  const engine = createFakeEngine();
  options.container.appendChild(document.createElement('canvas'));
  engines.push(engine);
  engineOptions.push(options);
  return engine;
});

export function resetEngines(): void {
  engines.length = 0;
  engineOptions.length = 0;
}
