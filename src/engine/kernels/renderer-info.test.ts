import { describe, expect, it } from 'vitest';
import { batchTextureLimit, isSoftwareRenderer } from './renderer-info';

describe('isSoftwareRenderer', () => {
  it('recognises the software rasterisers browsers fall back to', () => {
    expect(isSoftwareRenderer('ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)')).toBe(true);
    expect(isSoftwareRenderer('Google SwiftShader')).toBe(true);
    expect(isSoftwareRenderer('llvmpipe (LLVM 15.0.6, 256 bits)')).toBe(true);
    expect(isSoftwareRenderer('ANGLE (Microsoft, Microsoft Basic Render Driver Direct3D11 vs_5_0 ps_5_0)')).toBe(true);
  });

  it('leaves GPUs and unknown drivers alone', () => {
    expect(isSoftwareRenderer('ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0, D3D11)')).toBe(false);
    expect(isSoftwareRenderer('Apple M2')).toBe(false);
    expect(isSoftwareRenderer('Mesa Intel(R) UHD Graphics 620 (KBL GT2)')).toBe(false);
    expect(isSoftwareRenderer('')).toBe(false);
    expect(isSoftwareRenderer(null)).toBe(false);
    expect(isSoftwareRenderer(undefined)).toBe(false);
  });
});

describe('batchTextureLimit', () => {
  it('batches one texture at a time on a software rasteriser, else keeps the renderer limit', () => {
    expect(batchTextureLimit('Google SwiftShader', 16)).toBe(1);
    expect(batchTextureLimit('Apple M2', 16)).toBe(16);
    expect(batchTextureLimit(null, 8)).toBe(8);
  });
});
