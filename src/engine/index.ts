/**
 * The map engine: `createMapEngine(options)` mounts a PixiJS (WebGL) map into a container and
 * returns the API of types.ts. See README.md for layers, coordinate spaces and the tile life.
 */
// WebGLRenderer comes with this chunk (renderer-host.ts starts it; Application.init would import it on its own afterwards).
import { CanvasTextMetrics, Container, Graphics, Particle, ParticleContainer, Sprite, Texture, WebGLRenderer } from 'pixi.js';
// PixiJS's code generation without `new Function`: the page's CSP has no 'unsafe-eval' (docs/SERVER.md "Security headers").
import 'pixi.js/unsafe-eval';
import { buildIconAtlas } from './icon-atlas';
import { splitGraphemes } from './kernels/graphemes';
import { batchTextureLimit } from './kernels/renderer-info';
import { MapEngine, disposeStartedTiles, startTiles } from './map-engine';
import { startRenderer, type EngineApp } from './renderer-host';
import { shareTestContext } from './shared-test-context';
import type { EngineOptions, MapEngineApi } from './types';

// Labels' text is split by code point where that is exact, by a segmenter made on first need
// where not (kernels/graphemes.ts; the build keeps PixiJS from making one as it loads).
CanvasTextMetrics.graphemeSegmenter = splitGraphemes;

export type * from './types';
export { MapEngine, DEFAULT_TILE_BUDGET } from './map-engine';
export { ICON_CSS } from './marker-placement';
export { PING_MS } from './player-layer';

function checkOptions(options: EngineOptions): void {
  if (!options || typeof options !== 'object') throw new TypeError('createMapEngine: options are required');
  if (!(options.container instanceof HTMLElement)) throw new TypeError('createMapEngine: container must be an HTMLElement');
  if (!options.map?.id || !(options.map.size?.width > 0) || !(options.map.size?.height > 0)) {
    throw new TypeError('createMapEngine: map must be a MapDefinition with a positive size');
  }
  const m = options.manifest;
  if (!m || m.map !== options.map.id) {
    throw new TypeError(`createMapEngine: manifest is for map "${m?.map}", not "${options.map.id}"`);
  }
  if (!Array.isArray(m.layers) || !(m.maxZ >= m.minZ) || !m.version) {
    throw new TypeError('createMapEngine: manifest needs layers, a version and minZ ≤ maxZ');
  }
  if (typeof options.iconUrl !== 'function') throw new TypeError('createMapEngine: iconUrl must be a function');
}

/**
 * Textures per draw batch for this driver (kernels/renderer-info.ts: one on a software
 * rasteriser). Must run before the first render, which makes the batchers and their shader.
 */
function tuneBatching(app: EngineApp): void {
  if (!(app.renderer instanceof WebGLRenderer)) return;
  const { gl, limits } = app.renderer as unknown as { gl?: WebGLRenderingContext; limits?: { maxBatchableTextures?: number } };
  if (!gl || !limits || typeof limits.maxBatchableTextures !== 'number') return;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name: unknown = info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : null;
  limits.maxBatchableTextures = batchTextureLimit(typeof name === 'string' ? name : null, limits.maxBatchableTextures);
}

/**
 * Draws one of each kind of object the map uses so the renderer compiles its shaders now,
 * while the icons download, rather than in the first real frame (seconds on software GL).
 */
function warmUp(app: EngineApp): void {
  const scene = new Container();
  const sprite = new Sprite(Texture.WHITE);
  const particles = new ParticleContainer({ texture: Texture.WHITE });
  particles.addParticle(new Particle(Texture.WHITE));
  const shape = new Graphics().circle(0, 0, 4).fill({ color: 0xffffff }).stroke({ color: 0, width: 1 });
  sprite.alpha = 0.5;
  scene.addChild(sprite, particles, shape);
  app.renderer.render(scene);
  scene.destroy({ children: true });
}

export async function createMapEngine(options: EngineOptions): Promise<MapEngineApi> {
  checkOptions(options);
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
  canvas.setAttribute('aria-label', `${options.map.name} map`);
  container.appendChild(canvas);
  try {
    tuneBatching(app);
    warmUp(app);
    const atlas = await atlasPromise;
    return new MapEngine(app, atlas, options, tiles);
  } catch (error) {
    app.destroy({ removeView: true }, { children: true });
    disposeStartedTiles(tiles);
    throw error;
  }
}
