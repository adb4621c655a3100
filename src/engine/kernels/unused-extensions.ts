/**
 * WebGL extensions raidmap never uses, not asked of the browser (issue 11, the first second).
 * PixiJS's GlContextSystem enables every compressed-texture extension the browser has when its
 * renderer starts (`getExtensions`), so that it could upload compressed textures; raidmap's tiles
 * and its icon atlas are PNG and WebP, decoded to bitmaps. In Chromium each extension enabled is a
 * call to the GPU process: 0.6–6.6 ms each on SwiftShader, 9–25 ms for the seven this machine has
 * (measured in a render worker, three fresh contexts), on the start's critical path. The context
 * answers `null` for these, as a browser without them would; PixiJS then knows no compressed
 * format, which is true of what the map loads. Every other extension is asked as before.
 */
export const UNUSED_EXTENSIONS: ReadonlySet<string> = new Set([
  'WEBGL_compressed_texture_s3tc',
  'WEBGL_compressed_texture_s3tc_srgb',
  'WEBGL_compressed_texture_etc',
  'WEBGL_compressed_texture_etc1',
  'WEBGL_compressed_texture_pvrtc',
  'WEBKIT_WEBGL_compressed_texture_pvrtc',
  'WEBGL_compressed_texture_atc',
  'WEBGL_compressed_texture_astc',
  'EXT_texture_compression_bptc',
  'EXT_texture_compression_rgtc',
]);

interface ExtensionSource {
  getExtension(name: string): unknown;
}

/** Makes `gl.getExtension` answer `null` for the unused extensions without asking the browser; returns `gl`. */
export function withoutUnusedExtensions<T extends ExtensionSource>(gl: T): T {
  const ask = gl.getExtension.bind(gl);
  const getExtension = (name: string): unknown => (UNUSED_EXTENSIONS.has(name) ? null : ask(name));
  Object.defineProperty(gl, 'getExtension', { value: getExtension, configurable: true, writable: true });
  return gl;
}
