import { describe, expect, it, vi } from 'vitest';
import { UNUSED_EXTENSIONS, withoutUnusedExtensions } from './unused-extensions';

function fakeContext() {
  const asked: string[] = [];
  const gl = {
    getExtension(name: string): unknown {
      asked.push(name);
      return { name };
    },
  };
  return { gl, asked };
}

describe('withoutUnusedExtensions', () => {
  it('answers null for compressed-texture extensions without asking the context', () => {
    const { gl, asked } = fakeContext();
    withoutUnusedExtensions(gl);
    for (const name of UNUSED_EXTENSIONS) expect(gl.getExtension(name)).toBeNull();
    expect(asked).toEqual([]);
  });

  it('asks the context for every other extension, with the context as `this`', () => {
    const { gl, asked } = fakeContext();
    const original = vi.spyOn(gl, 'getExtension');
    withoutUnusedExtensions(gl);
    expect(gl.getExtension('WEBGL_lose_context')).toEqual({ name: 'WEBGL_lose_context' });
    expect(gl.getExtension('EXT_texture_filter_anisotropic')).toEqual({ name: 'EXT_texture_filter_anisotropic' });
    expect(gl.getExtension('EXT_color_buffer_float')).toEqual({ name: 'EXT_color_buffer_float' });
    expect(asked).toEqual(['WEBGL_lose_context', 'EXT_texture_filter_anisotropic', 'EXT_color_buffer_float']);
    expect(original.mock.contexts.every((self) => self === gl)).toBe(true);
  });

  it('keeps the extensions PixiJS needs to draw the map and to survive a lost context', () => {
    for (const needed of ['WEBGL_lose_context', 'EXT_texture_filter_anisotropic', 'OES_texture_float_linear', 'EXT_color_buffer_float', 'OES_vertex_array_object', 'ANGLE_instanced_arrays', 'OES_element_index_uint']) {
      expect(UNUSED_EXTENSIONS.has(needed)).toBe(false);
    }
  });
});
