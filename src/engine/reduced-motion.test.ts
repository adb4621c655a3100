// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAPS } from '../domain/maps';
import { MapEngine } from './map-engine';
import { MarkerPlacement } from './marker-placement';
import { prefersReducedMotion, REDUCED_MOTION_QUERY } from './reduced-motion';
import type { SceneDriver } from './scene-driver';
import type { EngineOptions } from './types';

describe('prefersReducedMotion', () => {
  it("reads the page's prefers-reduced-motion, false where there is no matchMedia (a worker)", () => {
    const asked: string[] = [];
    const env = (matches: boolean) => ({ matchMedia: (q: string) => (asked.push(q), { matches }) });
    expect(prefersReducedMotion(env(true))).toBe(true);
    expect(prefersReducedMotion(env(false))).toBe(false);
    expect(asked).toEqual([REDUCED_MOTION_QUERY, REDUCED_MOTION_QUERY]);
    expect(prefersReducedMotion({})).toBe(false);
  });
});

describe("the where-am-I ping and the page's reduced motion", () => {
  beforeEach(() => {
    vi.stubGlobal('requestAnimationFrame', () => 0);
    vi.stubGlobal('cancelAnimationFrame', () => undefined);
  });
  afterEach(() => vi.unstubAllGlobals());

  /** A MapEngine over a scene that records what it is told of the player (the worker's or PixiJS's, alike). */
  function engine(extra: Partial<EngineOptions> = {}) {
    const map = MAPS.customs;
    const container = document.createElement('div');
    const canvas = document.createElement('canvas');
    container.appendChild(canvas);
    const pings: boolean[] = [];
    const scene = new Proxy({} as SceneDriver, {
      get: (_, name) => (name === 'setPlayer' ? (_p: unknown, ping: boolean) => void pings.push(ping) : name === 'frame' ? () => false : () => undefined),
    });
    const options = { container, map, manifest: { map: map.id, version: 'v', layers: ['main'], minZ: 0, maxZ: 4, tileSize: 256 }, iconUrl: () => '', ...extra } as unknown as EngineOptions;
    const api = new MapEngine({ canvas, dpr: 1, renderer: 'webgl' }, new MarkerPlacement(map), options, () => scene);
    return { api, pings };
  }
  const at = { mapX: 100, mapY: 200, arrowAngle: null };

  it('pings as ever without reduced motion', () => {
    const { api, pings } = engine({ reducedMotion: () => false });
    api.setPlayer(at, true);
    api.setPlayer(at, false);
    expect(pings).toEqual([true, false]);
  });

  it('never pings with reduced motion: the dot moves, no ring grows', () => {
    const { api, pings } = engine({ reducedMotion: () => true });
    api.setPlayer(at, true);
    expect(pings).toEqual([false]);
  });

  it("reads the page's media query by default, at each position (a change applies at once)", () => {
    let reduce = true;
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === REDUCED_MOTION_QUERY && reduce }));
    const { api, pings } = engine();
    api.setPlayer(at, true);
    reduce = false;
    api.setPlayer(at, true);
    expect(pings).toEqual([false, true]);
  });
});
