/**
 * The map engine: `createMapEngine(options)` mounts a PixiJS (WebGL) map into a container and
 * returns the API of types.ts. See README.md for layers, coordinate spaces and the tile life.
 */
// WebGLRenderer comes with this chunk (renderer-host.ts starts it; Application.init would import it on its own afterwards).
import { CanvasTextMetrics } from 'pixi.js';
// PixiJS's code generation without `new Function`: the page's CSP has no 'unsafe-eval' (docs/SERVER.md "Security headers").
import 'pixi.js/unsafe-eval';
import { buildIconAtlas } from './icon-atlas';
import { splitGraphemes } from './kernels/graphemes';
import { LocalSceneDriver } from './local-scene';
import { MapEngine } from './map-engine';
import { MapScene } from './map-scene';
import { MarkerPlacement } from './marker-placement';
import { MarkerSprites } from './marker-sprites';
import { disposeStartedTiles, startTiles } from './started-tiles';
import { startRenderer, type EngineApp } from './renderer-host';
import { tuneBatching, warmUp } from './renderer-tuning';
import { checkOptions } from './engine-options';
import { shareTestContext } from './shared-test-context';
import type { EngineOptions, MapEngineApi } from './types';

// Labels' text is split by code point where that is exact, by a segmenter made on first need
// where not (kernels/graphemes.ts; the build keeps PixiJS from making one as it loads).
CanvasTextMetrics.graphemeSegmenter = splitGraphemes;

export type * from './types';
export { MapEngine } from './map-engine';
export { DEFAULT_TILE_BUDGET } from './started-tiles';
export { ICON_CSS } from './marker-placement';
export { PING_MS } from './player-layer';

function rendererName(name: string): 'webgl' | 'webgpu' | 'canvas' {
  return name === 'webgpu' ? 'webgpu' : name === 'webgl' ? 'webgl' : 'canvas';
}

export async function createMapEngine(options: EngineOptions): Promise<MapEngineApi> {
  checkOptions(options);
  options.earlyRender?.dispose();
  const { container } = options;
  const resolution = globalThis.devicePixelRatio || 1;
  const width = Math.max(1, container.clientWidth);
  const height = Math.max(1, container.clientHeight);
  // The icons and the first view's tiles download and decode while the renderer starts.
  const atlasPromise = buildIconAtlas(options.iconUrl, options.iconAtlasUrl);
  atlasPromise.catch(() => {});
  const tiles = startTiles(options, { width, height }, resolution);
  shareTestContext();
  let app: EngineApp;
  try {
    app = await startRenderer({
      antialias: false,
      resolution,
      autoDensity: true,
      width,
      height,
      backgroundColor: 0x161a1f,
      // The stream overlay shows what is under the page (OBS composes it over the game).
      backgroundAlpha: options.transparent ? 0 : 1,
      // PixiJS's browser extensions (its pointer events, accessibility overlay, DOM containers
      // and filters) are not used: the engine hit-tests through its own R-tree. Skipping them
      // spares a chunk that PixiJS would import (and evaluate) after this one, and their systems'
      // start (issue 11, docs/PERFORMANCE.md "First paint, third session").
      skipExtensionImports: true,
    });
  } catch (error) {
    disposeStartedTiles(tiles);
    throw error;
  }
  const canvas = app.canvas;
  canvas.style.display = 'block';
  // The page's map container names the map in the reader's language (MapCanvas.tsx, role
  // application); the canvas itself has nothing to read, so an English label here only repeated it.
  canvas.setAttribute('aria-hidden', 'true');
  container.appendChild(canvas);
  try {
    tuneBatching(app);
    warmUp(app);
    const atlas = await atlasPromise;
    const sprites = new MarkerSprites(atlas);
    const placement = new MarkerPlacement(options.map, sprites);
    const surface = { canvas: app.canvas, dpr: app.renderer.resolution, renderer: rendererName(app.renderer.name) };
    return new MapEngine(surface, placement, options, (hooks) => {
      const scene = new MapScene(app, atlas, placement, sprites, tiles, {
        map: options.map,
        labelScale: options.labelScale,
        invalidate: hooks.invalidate,
        failed: (message) => hooks.failed(message, 'context'),
      });
      return new LocalSceneDriver(scene, hooks);
    });
  } catch (error) {
    app.destroy({ removeView: true }, { children: true });
    disposeStartedTiles(tiles);
    throw error;
  }
}
