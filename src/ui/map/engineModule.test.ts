/**
 * Which engine chunk the map page loads: the worker engine by default, the main-thread engine
 * with `?render=main` or once a render worker failed in this tab, each loaded once, and a failed
 * load tried again.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const state = vi.hoisted(() => ({ supported: true, mode: 'worker' as 'worker' | 'main', failEngine: 0 }));

vi.mock('../../engine/render-worker/early-render', () => ({ renderWorkerSupported: () => state.supported }));
vi.mock('./renderMode', () => ({ pageRenderMode: () => state.mode }));
vi.mock('../../engine/worker-engine', () => ({
  get createMapEngine() {
    if (state.failEngine > 0) {
      state.failEngine -= 1;
      throw new Error('chunk failed to load');
    }
    return 'worker engine';
  },
}));
vi.mock('../../engine/index', () => ({ createMapEngine: 'main-thread engine' }));
vi.mock('../../tools/index', () => ({ tools: true }));

beforeEach(() => {
  vi.resetModules();
  state.supported = true;
  state.mode = 'worker';
  state.failEngine = 0;
});

async function engineModule() {
  return import('./engineModule');
}

describe('loadEngineModule', () => {
  it('loads the worker engine by default, once', async () => {
    const { loadEngineModule } = await engineModule();
    const first = loadEngineModule();
    expect(loadEngineModule()).toBe(first);
    expect((await first).createMapEngine).toBe('worker engine');
  });

  it('loads the main-thread engine with ?render=main', async () => {
    state.mode = 'main';
    const { loadEngineModule } = await engineModule();
    expect((await loadEngineModule()).createMapEngine).toBe('main-thread engine');
  });

  it('loads the main-thread engine after a render worker failed in this tab, not the worker engine it had', async () => {
    const { loadEngineModule } = await engineModule();
    expect((await loadEngineModule()).createMapEngine).toBe('worker engine');
    state.supported = false; // early-render remembers the failure
    expect((await loadEngineModule()).createMapEngine).toBe('main-thread engine');
  });

  it('tries a failed chunk load again', async () => {
    state.failEngine = 1;
    const { loadEngineModule } = await engineModule();
    await expect(loadEngineModule()).rejects.toThrow('chunk failed to load');
    expect((await loadEngineModule()).createMapEngine).toBe('worker engine');
  });
});
