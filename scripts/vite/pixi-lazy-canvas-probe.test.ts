/**
 * The canvas probe edit finds its two lines in the installed PixiJS, and the edited module,
 * evaluated with stand-ins for its imports, probes nothing as it loads and gives the canvas
 * renderer the same answers on first use.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EAGER_PROBE, EAGER_TINT, TARGET_MODULE, pixiLazyCanvasProbe, withLazyCanvasProbe } from './pixi-lazy-canvas-probe';

const require = createRequire(import.meta.url);
const entry = require.resolve('pixi.js');
const pixiRoot = entry.slice(0, entry.lastIndexOf(`${sep}lib${sep}`));
const modulePath = join(pixiRoot, 'lib', 'rendering', 'renderers', 'canvas', 'utils', 'canvasUtils.mjs');

interface CanvasUtils {
  canUseMultiply: boolean;
  tintMethod: unknown;
  tintWithMultiply: unknown;
  tintWithPerPixel: unknown;
}

/** Evaluates the (edited) module with its imports replaced; `probe` stands in for canUseNewCanvasBlendModes. */
function evaluate(code: string, probe: () => boolean): CanvasUtils {
  const body = code
    .replace(/^import .*$/gm, '')
    .replace(/^export \{ canvasUtils \};$/m, 'return canvasUtils;')
    .replace(/^\/\/# sourceMappingURL=.*$/m, '');
  const adapter = { get: () => ({ createCanvas: () => ({}) }) };
  return new Function('Color', 'DOMAdapter', 'groupD8', 'canUseNewCanvasBlendModes', body)({}, adapter, {}, probe) as CanvasUtils;
}

describe('pixi-lazy-canvas-probe', () => {
  const code = readFileSync(modulePath, 'utf8');

  it('edits the installed PixiJS module', () => {
    expect(TARGET_MODULE.test(modulePath)).toBe(true);
    const edited = withLazyCanvasProbe(code);
    expect(edited).not.toContain(EAGER_PROBE);
    expect(edited).not.toContain(EAGER_TINT);
  });

  it('the installed module probes as it loads; the edited one on first use, once', () => {
    let probes = 0;
    const eager = evaluate(code, () => (probes++, true));
    expect(probes).toBe(1);
    expect(eager.tintMethod).toBe(eager.tintWithMultiply);

    probes = 0;
    const lazy = evaluate(withLazyCanvasProbe(code), () => (probes++, true));
    expect(probes).toBe(0);
    expect(lazy.tintMethod).toBe(lazy.tintWithMultiply);
    expect(lazy.canUseMultiply).toBe(true);
    expect(lazy.tintMethod).toBe(lazy.tintWithMultiply);
    // The method is picked once and kept; the probe itself caches its answer in PixiJS.
    expect(probes).toBe(2);
  });

  it('picks the per-pixel tint where the canvas cannot multiply, and keeps an assigned method', () => {
    const lazy = evaluate(withLazyCanvasProbe(code), () => false);
    expect(lazy.tintMethod).toBe(lazy.tintWithPerPixel);
    const assigned = evaluate(withLazyCanvasProbe(code), () => true);
    const mine = () => {};
    assigned.tintMethod = mine;
    expect(assigned.tintMethod).toBe(mine);
  });

  it('stops the build where a line is missing or there twice', () => {
    expect(() => withLazyCanvasProbe('export const x = 1;')).toThrow(/PixiJS changed/);
    expect(() => withLazyCanvasProbe(`${EAGER_PROBE}\n${EAGER_PROBE}\n${EAGER_TINT}`)).toThrow(/exactly one/);
  });

  it('touches only that module, and only in builds', () => {
    const plugin = pixiLazyCanvasProbe();
    expect(plugin.apply).toBe('build');
    const transform = plugin.transform as (code: string, id: string) => unknown;
    expect(transform('const a = 1;', '/x/node_modules/pixi.js/lib/scene/text/Text.mjs')).toBeNull();
    expect(transform(`${EAGER_PROBE}\n${EAGER_TINT}`, `${modulePath}?v=1`)).toMatchObject({ code: expect.stringContaining('get canUseMultiply()') });
  });
});
