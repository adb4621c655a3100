/**
 * What a new renderer is given before the map's first frame, on the main thread or in the
 * render worker: its batch size for this driver, and its shaders compiled.
 */
import { Container, Graphics, Particle, ParticleContainer, Sprite, Texture, WebGLRenderer } from 'pixi.js';
import { batchTextureLimit } from './kernels/renderer-info';
import type { EngineApp } from './renderer-host';

/**
 * Textures per draw batch for this driver (kernels/renderer-info.ts: one on a software
 * rasteriser). Must run before the first render, which makes the batchers and their shader.
 */
export function tuneBatching(app: EngineApp): void {
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
export function warmUp(app: EngineApp): void {
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
