/** prepareAllTiles: progress, a broken map does not stop the others, abort, and the manifest it leads to. */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { MAPS, type MapDefinition } from '../../src/domain/maps';
import { loadManifest, prepareAllTiles } from './index';
import { disposeNormalizer } from './normalize';

const root = mkdtempSync(path.join(tmpdir(), 'raidmap-prepare-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterAll(() => disposeNormalizer());

const small = (base: MapDefinition): MapDefinition => ({ ...base, size: { width: 512, height: 512 }, layers: ['main', 'level2'] });

describe('prepareAllTiles', () => {
  const assetsDir = path.join(root, 'assets');
  const tilesDir = path.join(root, 'tiles');
  mkdirSync(path.join(assetsDir, 'maps', 'dev'), { recursive: true });
  mkdirSync(path.join(assetsDir, 'maps', 'factory'), { recursive: true });
  writeFileSync(path.join(assetsDir, 'maps', 'dev', 'map.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><g id="main"></svg>');
  copyFileSync(path.resolve(__dirname, '../../tests/fixtures/svg/inkscape-layers.svg'), path.join(assetsDir, 'maps', 'factory', 'map.svg'));
  const maps = [small(MAPS.dev), small(MAPS.factory)];

  it('does nothing once aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await prepareAllTiles({ assetsDir, tilesDir, maps, signal: controller.signal });
    expect(result.maps).toEqual([]);
  });

  it('builds the good maps, reports the broken one, and counts progress in layers', async () => {
    const progress = vi.fn();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const result = await prepareAllTiles({ assetsDir, tilesDir, maps, onProgress: progress });
    error.mockRestore();
    expect(result.failed).toEqual([{ map: 'dev', error: expect.stringContaining('does not match') }]);
    expect(result.maps).toEqual([expect.objectContaining({ map: 'factory', built: true })]);
    expect(progress).toHaveBeenNthCalledWith(1, 0, 4, 0);
    // The broken map's 2 layers are finished, not built.
    expect(progress).toHaveBeenLastCalledWith(4, 4, 2);
    const manifest = await loadManifest('factory', { assetsDir, tilesDir });
    expect(manifest).toMatchObject({ map: 'factory', version: result.maps[0].version, width: 512, height: 512, layers: ['main', 'level2'] });
    expect(await loadManifest('atlantis', { assetsDir, tilesDir })).toBeUndefined();
  });

  it('names the drawing when resvg refuses a layer of it', async () => {
    const site = path.join(root, 'refused');
    const svgFile = path.join(site, 'maps', 'woods', 'map.svg');
    mkdirSync(path.dirname(svgFile), { recursive: true });
    // Read by raidmap's scanner, refused by resvg (an attribute given twice).
    writeFileSync(svgFile, '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><g id="main"><rect width="1" width="2"/></g></svg>');
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const result = await prepareAllTiles({ assetsDir: site, tilesDir: path.join(root, 'refused-tiles'), maps: [small(MAPS.woods)], log });
    expect(result.failed).toEqual([{ map: 'woods', error: expect.stringContaining('resvg could not read') }]);
    expect(log.error).toHaveBeenCalledWith(expect.stringContaining(`tiles: woods: could not build tiles from ${svgFile}: resvg could not read layer`));
  });

  it('warns about layers the SVG lacks and still builds them (empty)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const map = { ...small(MAPS.factory), layers: ['main', 'level2', 'level3'] };
    const result = await prepareAllTiles({ assetsDir, tilesDir, maps: [map] });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('"level3"'));
    warn.mockRestore();
    expect(result.failed).toEqual([]);
    expect(result.maps[0].built).toBe(true);
  });

  it('builds several maps at once when asked, reporting them in the given order', async () => {
    const dir = path.join(root, 'tiles-concurrent');
    mkdirSync(path.join(assetsDir, 'maps', 'woods'), { recursive: true });
    copyFileSync(path.resolve(__dirname, '../../tests/fixtures/svg/use-symbol.svg'), path.join(assetsDir, 'maps', 'woods', 'map.svg'));
    const two = [small(MAPS.woods), small(MAPS.factory)];
    const progress = vi.fn();
    const result = await prepareAllTiles({ assetsDir, tilesDir: dir, maps: two, concurrency: 2, onProgress: progress });
    expect(result.failed).toEqual([]);
    expect(result.maps.map((m) => [m.map, m.built])).toEqual([['woods', true], ['factory', true]]);
    expect(progress).toHaveBeenLastCalledWith(4, 4, 0);
  });
});
