/**
 * The tile store's answers for a drawing whose art cannot be read: the same error on every
 * manifest request (the route answers 500, docs/MAP-ART.md), the art report logged once.
 * A drawing that cannot be used logged once per change of its files; the sample map's copy
 * (one tiny map rendered).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { disposeRenderPool } from './render-pool';
import { MAPS, type MapDefinition } from '../../src/domain/maps';
import { TileStore, publicSourceProblem, sampleSvgPath } from './store';
import { SvgSourceError } from './svg-doc';

const root = mkdtempSync(path.join(tmpdir(), 'raidmap-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterAll(() => disposeRenderPool());
afterEach(() => vi.restoreAllMocks());

const map: MapDefinition = { ...MAPS.customs, size: { width: 256, height: 256 }, layers: ['main'] };

let n = 0;
/** A store over a fresh assets folder holding `files` under maps/customs/. */
function storeWith(files: Record<string, string | Buffer>): TileStore {
  const dir = path.join(root, `site-${++n}`);
  const mapDir = path.join(dir, 'assets', 'maps', map.id);
  mkdirSync(mapDir, { recursive: true });
  for (const [name, body] of Object.entries(files)) writeFileSync(path.join(mapDir, name), body);
  return new TileStore({ assetsDir: path.join(dir, 'assets'), tilesDir: path.join(dir, 'tiles'), maps: [map] });
}

const DRAWING = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><g id="main"><rect width="100" height="100"/></g><g id="Legend"/></svg>';

describe('manifest', () => {
  it('answers the same error on every request while the art cannot be read', async () => {
    const store = storeWith({ 'map.svg': DRAWING.replace('0 0 100 100', '0 0 0 0') });
    vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    for (let i = 0; i < 3; i++) await expect(store.manifest(map.id), `request ${i + 1}`).rejects.toThrow('bad viewBox "0 0 0 0"');
  });

  it('answers the same error on every request for an empty placement in map.json', async () => {
    const store = storeWith({ 'map.svg': DRAWING, 'map.json': '{"placement": {"rect": {"x": 0, "y": 0, "width": 1e-9, "height": 5}}}' });
    vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    for (let i = 0; i < 2; i++) await expect(store.manifest(map.id)).rejects.toThrow(/customs[/\\]map\.json: placement: .*empty rectangle/);
  });

  it('logs the art report once per version', async () => {
    const store = storeWith({ 'map.svg': DRAWING });
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const first = await store.manifest(map.id);
    expect((await store.manifest(map.id))?.version).toBe(first?.version);
    expect(log.mock.calls.filter((c) => String(c[0]).includes('layers main=main'))).toHaveLength(1);
    expect(warn.mock.calls.filter((c) => String(c[0]).includes('group "Legend"'))).toHaveLength(1);
  });

  it('logs the art warnings once per version, each naming its file; a sound drawing has none', async () => {
    const store = storeWith({
      'map.svg': DRAWING.replace('viewBox="0 0 100 100"', 'width="100%"'),
      'map.json': '{"exclude": ["Legnd", "Main", "Fram"], "placement": {"rect": {"x": 5000, "y": 5000, "width": 100, "height": 100}}}',
    });
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await store.manifest(map.id);
    await store.manifest(map.id);
    const dir = path.join(store.assetsDir, 'maps', map.id);
    const warnings = warn.mock.calls.map((c) => String(c[0]));
    for (const expected of [
      `tiles: customs: ${path.join(dir, 'map.svg')}: the drawing has no viewBox and no absolute width/height (width="100%"): taken as the map's size 256×256; give it a viewBox`,
      `tiles: customs: ${path.join(dir, 'map.json')}: exclude: no group named "Legnd", "Fram" (looked for as id=, inkscape:label=, data-name=, ignoring case)`,
      `tiles: customs: ${path.join(dir, 'map.json')}: exclude: "Main" is the group of layer "main"; a floor cannot be left out, so it is drawn anyway (remove it from exclude, or give that layer other names with "layers")`,
      `tiles: customs: ${path.join(dir, 'map.json')}: placement.rect: 100 % of the drawing lies outside the map (0,0 256×256); that part is never drawn`,
    ]) {
      expect(warnings.filter((w) => w === expected), expected).toHaveLength(1);
    }

    const wrapped = storeWith({ 'map.svg': DRAWING.replace('<g id="main">', '<g id="All"><g id="main">').replace('</svg>', '</g></svg>'), 'map.json': '{"exclude": ["All"]}' });
    expect(wrapped.artReport(await wrapped.source(map)).warnings.map((w) => w.message)).toEqual([
      'exclude: "All" holds the group of layer "main"; floors cannot be left out, so it is drawn and only the rest of "All" is left out (name the groups to leave out instead)',
    ]);

    const sound = storeWith({ 'map.svg': DRAWING, 'map.json': '{"exclude": ["legend"]}' });
    expect(sound.artReport(await sound.source(map)).warnings).toEqual([]);
  });

  it('refuses a UTF-16 drawing with the reason', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(DRAWING, 'utf16le')]);
    const store = storeWith({ 'map.svg': utf16 });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(store.manifest(map.id)).rejects.toThrow(SvgSourceError);
    await expect(store.manifest(map.id)).rejects.toThrow('the drawing must be UTF-8');
  });
});

/** A log to give the store, and its error lines. */
const lines = () => {
  const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  return { log, errors: () => log.error.mock.calls.map((c) => String(c[0])) };
};

describe('a drawing that cannot be used', () => {

  it('is logged whole (path and field) once per change of its files, not per request', async () => {
    const store = storeWith({ 'map.svg': DRAWING, 'map.json': '{"placement": {"fill": "yes"}}' });
    const { log, errors } = lines();
    store.useLog(log);
    const artFile = path.join(store.assetsDir, 'maps', map.id, 'map.json');
    for (let i = 0; i < 3; i++) await expect(store.manifest(map.id)).rejects.toThrow('placement.fill: expected true, got "yes"');
    expect(errors()).toHaveLength(1);
    expect(errors()[0]).toMatch(`tiles: customs: the map's drawing cannot be used until this is fixed: ${artFile}: placement: expected one of`);
    expect(errors()[0]).toContain('placement.fill: expected true, got "yes"');

    // Another mistake (another size and reason): logged again, once.
    writeFileSync(artFile, '{"placement": {"fill": false}}');
    for (let i = 0; i < 2; i++) await expect(store.manifest(map.id)).rejects.toThrow();
    expect(errors()).toHaveLength(2);
    expect(errors()[1]).toContain('placement.fill: expected true, got false');

    // Mended, then broken again the first way: a change of the file, logged again.
    writeFileSync(artFile, '{"placement": {"fill": true}}');
    await expect(store.manifest(map.id)).resolves.toMatchObject({ map: map.id });
    writeFileSync(artFile, '{"placement": {"fill": "yes"}}');
    await expect(store.manifest(map.id)).rejects.toThrow();
    expect(errors()).toHaveLength(3);
  });

  it('names the drawing when the drawing itself cannot be read, as map.json is named', async () => {
    const store = storeWith({ 'map.svg': '<svg xmlns="http://www.w3.org/2000/svg"><g id="main"><rect/></svg>' });
    const { log, errors } = lines();
    store.useLog(log);
    const svgFile = path.join(store.assetsDir, 'maps', map.id, 'map.svg');
    // The error itself stays the scanner's (map:check words it with the operator's own path).
    for (let i = 0; i < 2; i++) await expect(store.manifest(map.id)).rejects.toThrow(/^end tag <\/svg> at offset \d+ does not match <g>$/);
    expect(errors()).toEqual([expect.stringMatching(/^tiles: customs: the map's drawing cannot be used until this is fixed: (.+): end tag <\/svg> at offset \d+ does not match <g>$/)]);
    expect(errors()[0]).toContain(`fixed: ${svgFile}: end tag`);
  });

  it('is known as logged, so the routes do not log it per request; its public reason names no file', async () => {
    const store = storeWith({ 'map.svg': DRAWING, 'map.json': '{"layers": {"main": 5}}' });
    store.useLog(lines().log);
    const err = await store.manifest(map.id).catch((e: unknown) => e);
    expect(store.hasLogged(err)).toBe(true);
    expect(store.hasLogged(new Error('other'))).toBe(false);
    expect(publicSourceProblem(map.id, err)).toBe(`the art of map "customs" cannot be shown right now: its map.json has a mistake (the server's log says why)`);
    expect(publicSourceProblem(map.id, new SvgSourceError('x'))).toBe(`the art of map "customs" cannot be shown right now: its drawing cannot be read (the server's log says why)`);
    expect(publicSourceProblem(map.id, new Error(`EACCES: ${store.assetsDir}`))).not.toContain(store.assetsDir);
  });
});

describe('the sample map copy', () => {
  it('is written inside TILES_DIR, never beside it', () => {
    const tilesDir = path.join(root, 'probe-tiles');
    expect(sampleSvgPath(tilesDir, 'customs')).toBe(path.join(tilesDir, 'sample-maps', 'customs.svg'));
  });

  it('goes to $TILES_DIR/sample-maps when a map is built, and a folder that cannot take it costs a warning only', async () => {
    const dir = path.join(root, `sample-${++n}`);
    const tilesDir = path.join(dir, 'tiles');
    const small: MapDefinition = { ...MAPS.labyrinth, size: { width: 256, height: 256 }, layers: ['main'] };
    const store = new TileStore({ assetsDir: path.join(dir, 'assets'), tilesDir, maps: [small] });
    const { log } = lines();
    store.useLog(log);
    // A file where the copy's folder would go: it cannot be made (as an unwritable folder).
    mkdirSync(tilesDir, { recursive: true });
    writeFileSync(path.join(tilesDir, 'sample-maps'), 'in the way');
    const built = await store.prepareMap(small);
    expect(built.built).toBe(true);
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining(`tiles: labyrinth: could not leave a copy of the sample map at ${sampleSvgPath(tilesDir, 'labyrinth')}`));


    const freshTiles = path.join(dir, 'tiles-2');
    await new TileStore({ assetsDir: path.join(dir, 'assets'), tilesDir: freshTiles, maps: [small], log }).prepareMap(small);
    expect(readFileSync(sampleSvgPath(freshTiles, 'labyrinth'), 'utf8')).toContain('<svg');
    expect(existsSync(path.join(dir, 'sample-maps'))).toBe(false);
  });
});
