/**
 * What the WebGL driver is, and what that means for batching. Software rasterisers
 * (SwiftShader, llvmpipe) run Pixi's batch shader per pixel on the CPU, and its texture
 * choice is an if-chain over every texture slot of the batch: with 16 slots each pixel pays
 * for up to 16 texture samples. There one texture per batch is far cheaper: more draw calls,
 * each pixel sampled once. GPUs keep Pixi's default (fewer draw calls).
 */

const SOFTWARE_RASTERISERS = /swiftshader|llvmpipe|softpipe|software rasterizer|microsoft basic render/i;

/** True for a software rasteriser's renderer string (WEBGL_debug_renderer_info's UNMASKED_RENDERER_WEBGL). */
export function isSoftwareRenderer(rendererName: string | null | undefined): boolean {
  return typeof rendererName === 'string' && SOFTWARE_RASTERISERS.test(rendererName);
}

/** Textures per batch for a driver: 1 on a software rasteriser, else the renderer's own limit. */
export function batchTextureLimit(rendererName: string | null | undefined, rendererLimit: number): number {
  return isSoftwareRenderer(rendererName) ? 1 : rendererLimit;
}
