/**
 * The PixiJS edit finds its one line in the installed PixiJS (an upgrade that moves it fails
 * here, not silently in the build), keeps the module's fallback, and refuses code without it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEGMENTER_CHECK, TARGET_MODULE, pixiLazySegmenter, withoutEagerSegmenter } from './pixi-lazy-segmenter';

// PixiJS's exports map hides package.json: its root is the folder above its resolved entry's lib/.
const require = createRequire(import.meta.url);
const entry = require.resolve('pixi.js');
const pixiRoot = entry.slice(0, entry.lastIndexOf(`${sep}lib${sep}`));
const modulePath = join(pixiRoot, 'lib', 'scene', 'text', 'canvas', 'CanvasTextMetrics.mjs');

describe('pixi-lazy-segmenter', () => {
  it('edits the installed PixiJS module: no segmenter made at load, the code-point fallback kept', () => {
    expect(TARGET_MODULE.test(modulePath)).toBe(true);
    const code = readFileSync(modulePath, 'utf8');
    const edited = withoutEagerSegmenter(code);
    expect(edited).not.toContain(SEGMENTER_CHECK);
    expect(edited).toContain('if (false) {');
    expect(edited).toContain('return (s) => [...s];');
    expect(edited.length).toBeGreaterThan(code.length - SEGMENTER_CHECK.length);
  });

  it('stops the build where the line is missing or there twice', () => {
    expect(() => withoutEagerSegmenter('export const x = 1;')).toThrow(/PixiJS changed/);
    expect(() => withoutEagerSegmenter(`${SEGMENTER_CHECK}}\n${SEGMENTER_CHECK}}`)).toThrow(/exactly one/);
  });

  it('touches only that module, and only in builds', () => {
    const plugin = pixiLazySegmenter();
    expect(plugin.apply).toBe('build');
    const transform = plugin.transform as (code: string, id: string) => unknown;
    expect(transform('const a = 1;', '/x/node_modules/pixi.js/lib/scene/text/Text.mjs')).toBeNull();
    expect(transform(SEGMENTER_CHECK + '}', `${modulePath}?v=1`)).toMatchObject({ code: expect.stringContaining('if (false)') });
  });
});
