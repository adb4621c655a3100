/**
 * Operators' drawings as they come (docs/MAP-ART.md): community group names, map.json,
 * placement with the aspect ratio kept, and points of known game coordinates landing on
 * their drawn spot. The drawings are generated (tests/support/community-svg.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { COMMUNITY_LAYERS, MapArtError, layerGroupNames } from '../../src/domain/map-art';
import { MAPS, MAP_IDS, type MapDefinition } from '../../src/domain/maps';
import { communityDrawing, findColour } from '../../tests/support/community-svg';
import { prepareAllTiles } from './index';
import { disposeNormalizer } from './normalize';
import { renderRegion } from './render';
import { TileStore } from './store';
import { drawingPixels, findGroup, layerSvg, matchLayers, parseSvg, regionSvg } from './svg-doc';

const root = mkdtempSync(path.join(tmpdir(), 'raidmap-map-art-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterAll(() => disposeNormalizer());

let n = 0;
/** A fresh assets + tiles folder with `files` under assets/maps/<map>/. */
function site(mapId: string, files: Record<string, string>): { assetsDir: string; tilesDir: string } {
  const dir = path.join(root, `site-${++n}`);
  const mapDir = path.join(dir, 'assets', 'maps', mapId);
  mkdirSync(mapDir, { recursive: true });
  for (const [name, body] of Object.entries(files)) writeFileSync(path.join(mapDir, name), body);
  return { assetsDir: path.join(dir, 'assets'), tilesDir: path.join(dir, 'tiles') };
}

describe('matching groups to layers', () => {
  it('finds every floor of every map in a community-style drawing (id, inkscape:label, data-name, any case)', () => {
    for (const id of MAP_IDS) {
      const map = MAPS[id];
      const drawing = communityDrawing({ map, placement: COMMUNITY_LAYERS[id].bounds ? undefined : { fill: true } });
      const doc = parseSvg(drawing.svg);
      const match = matchLayers(doc, layerGroupNames(map));
      for (const layer of map.layers) {
        const groups = match.groups.get(layer)!;
        expect(groups, `${id}/${layer}`).toHaveLength(1);
        // Found by the community name (or raidmap's id where it is that name in another case: "Basement").
        expect(match.foundBy.get(layer)!.map((x) => x.toLowerCase()), `${id}/${layer}`).toEqual([drawing.names[layer].toLowerCase()]);
      }
      expect(match.communityNamed).toBe(true);
      // The wrapper holding the floors and the floors' own subgroups are no unmatched groups.
      expect(match.unmatched, id).toEqual(['Labels', 'Legend', 'Frame']);
    }
  });

  it('matches exactly first, then ignoring case; a group is given to one layer only', () => {
    const doc = parseSvg(
      '<svg xmlns:inkscape="x"><g id="second_floor"/><g inkscape:label="Second_Floor" id="a"/><g data-name="GROUND_LEVEL" id="b"/><linearGradient id="Ground_Level"/></svg>',
    );
    expect(findGroup(doc, 'Second_Floor')?.attrs.get('id')).toBe('a');
    expect(findGroup(doc, 'second_floor')?.attrs.get('id')).toBe('second_floor');
    // A gradient of that id is no layer.
    expect(findGroup(doc, 'Ground_Level')?.attrs.get('id')).toBe('b');
    const match = matchLayers(doc, { level2: ['Second_Floor', 'second_floor'], level3: ['second_floor'] });
    expect(match.groups.get('level2')!.map((g) => g.attrs.get('id'))).toEqual(['a', 'second_floor']);
    expect(match.groups.get('level3')).toEqual([]);
    expect(match.communityNamed).toBe(true);
    expect(matchLayers(doc, { main: ['main'] }).communityNamed).toBe(false);
  });

  it('draws a layer from several groups, leaves excluded groups out, and lists a group of no layer once', () => {
    const text =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50">' +
      '<g id="Ground_Level"><rect id="ground" width="100" height="50"/><g id="Second_Floor"><rect id="up" width="5" height="5"/></g><g id="Notes"><rect id="note" width="1" height="1"/></g></g>' +
      '<g id="Roads"><rect id="road" width="1" height="1"/></g>' +
      '<g id="Legend"><rect id="legend" width="1" height="1"/></g><g inkscape:label="Legend" id="legend2"/>' +
      '<g id="Labels"/><g inkscape:label="Labels" id="labels2"/>' +
      '</svg>';
    const doc = parseSvg(text);
    const names = { main: ['main', 'Ground_Level', 'Roads'], level2: ['level2', 'Second_Floor'] };
    const match = matchLayers(doc, names, ['legend', 'Notes']);
    expect(match.groups.get('main')!.map((g) => g.attrs.get('id'))).toEqual(['Ground_Level', 'Roads']);
    expect(match.excluded.map((g) => g.attrs.get('id'))).toEqual(['Legend', 'legend2', 'Notes']);
    expect(match.unmatched).toEqual(['Labels']);

    const opts = { layers: ['main', 'level2'], baseLayer: 'main', match };
    const main = layerSvg(text, doc, 'main', opts, { width: 200, height: 100 });
    const tag = (body: string, id: string) => body.match(new RegExp(`<[^>]*id="${id}"[^>]*>`))?.[0] ?? '';
    expect(tag(main.body, 'Ground_Level')).toContain('display:inline');
    expect(tag(main.body, 'Roads')).toContain('display:inline');
    // A floor nested in the ground group is a layer of its own; excluded groups never draw.
    expect(tag(main.body, 'Second_Floor')).toContain('display:none');
    expect(tag(main.body, 'Notes')).toContain('display:none');
    expect(tag(main.body, 'Legend')).toContain('display:none');
    expect(tag(main.body, 'legend2')).toContain('display:none');
    // Loose groups go with the base layer, as before.
    expect(tag(main.body, 'Labels')).not.toContain('display:none');

    const up = layerSvg(text, doc, 'level2', opts, { width: 200, height: 100 });
    // The floor shows although its parent is another layer: that layer's own content is hidden.
    expect(tag(up.body, 'Second_Floor')).toContain('display:inline');
    expect(tag(up.body, 'Ground_Level')).not.toContain('display:none');
    expect(tag(up.body, 'ground')).toContain('display:none');
    expect(tag(up.body, 'Notes')).toContain('display:none');
    expect(tag(up.body, 'Roads')).toContain('display:none');
    expect(tag(up.body, 'Labels')).toContain('display:none');
    expect(() => parseSvg(up.head + '<svg>' + up.body)).not.toThrow();
  });
});

describe('regions of a placed drawing', () => {
  const text = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="-100 50 200 100"><g id="main"><rect x="-100" y="50" width="200" height="100"/></g></svg>';
  const doc = parseSvg(text);
  const size = { width: 1000, height: 1000 };

  it('scales the viewBox uniformly onto its placement (fitted, centred by default)', () => {
    const l = layerSvg(text, doc, 'main', { layers: ['main'], baseLayer: 'main' }, size);
    // 200 × 100 fitted into 1000 × 1000: 1000 × 500 at y 250; 5 map px per unit.
    expect(l.place).toEqual({ x: 0, y: 250, width: 1000, height: 500 });
    const svg = regionSvg(l, { mapX: 500, mapY: 250, scale: 0.5, outWidth: 100, outHeight: 100 }, size);
    // Map (500, 250) is unit (0, 50); 100 px at 0.5 is 200 map px = 40 units each way.
    expect(svg).toContain('viewBox="0 50 40 40"');
    expect(drawingPixels(l, { mapX: 500, mapY: 250, scale: 0.5, outWidth: 100, outHeight: 100 }, size)).toBeUndefined();
    // Straddling the top edge of the drawing: the rows above it are cleared.
    expect(drawingPixels(l, { mapX: 0, mapY: 200, scale: 0.5, outWidth: 100, outHeight: 100 }, size)).toEqual({ left: 0, top: 25, right: 100, bottom: 100 });
  });

  it('puts the viewBox where the placement says', () => {
    const l = layerSvg(text, doc, 'main', { layers: ['main'], baseLayer: 'main', place: { x: 100, y: 100, width: 400, height: 200 } }, size);
    const svg = regionSvg(l, { mapX: 100, mapY: 100, scale: 1, outWidth: 400, outHeight: 200 }, size);
    expect(svg).toContain('viewBox="-100 50 200 100"');
  });
});

/** Renders a window of `size` output px around a map point of a layer, at `scale` px per map px. */
async function around(store: TileStore, map: MapDefinition, layerId: string, at: { mapX: number; mapY: number }, scale: number, size = 64) {
  const source = await store.source(map);
  const layer = await store.layer(source, layerId);
  const mapX = at.mapX - size / 2 / scale;
  const mapY = at.mapY - size / 2 / scale;
  const image = await renderRegion(layer, { mapX, mapY, scale, outWidth: size, outHeight: size }, map.size);
  // Straight (not premultiplied) colours are what the dots are drawn in; they are opaque here.
  return { image: { width: size, height: size, data: image.pixels }, origin: { mapX, mapY } };
}

describe('placement and alignment', () => {
  for (const id of ['customs', 'factory', 'lab'] as const) {
    it(`a game point lands on its drawn spot, on every floor (${id}, rotation ${MAPS[id].transform.rotate}°)`, async () => {
      const map = MAPS[id];
      const drawing = communityDrawing({ map });
      const files = site(id, { 'map.svg': drawing.svg });
      const store = new TileStore({ ...files, maps: [map] });
      const source = await store.source(map);
      const report = store.artReport(source);
      // No map.json: the community drawing covers the reference bounds, aspect kept.
      expect(report.placement.from).toBe('bounds');
      expect(report.placement.rect.x).toBeCloseTo(drawing.rect.x, 6);
      expect(report.placement.rect.width / report.placement.rect.height).toBeCloseTo(1062 / 535, 6);
      expect(report.missing).toEqual([]);
      const scale = 0.5;
      for (const layerId of map.layers) {
        const floor = drawing.floors[layerId];
        const { image, origin } = await around(store, map, layerId, floor.map, scale);
        const dot = findColour(image, floor.dot, { x: 32, y: 32 }, 32, 30);
        expect(dot, `${id}/${layerId}: dot drawn`).toBeDefined();
        const mapX = origin.mapX + dot!.x / scale;
        const mapY = origin.mapY + dot!.y / scale;
        // Within 2 map pixels of gameToMap of the point.
        expect(Math.hypot(mapX - floor.map.mapX, mapY - floor.map.mapY), `${id}/${layerId}`).toBeLessThan(2);
      }
    });
  }

  it('leaves the map outside the drawing transparent, even where the drawing spills past its viewBox', async () => {
    const map = MAPS.customs;
    const drawing = communityDrawing({ map });
    const store = new TileStore({ ...site('customs', { 'map.svg': drawing.svg }), maps: [map] });
    const r = drawing.rect;
    // Straddling the drawing's left edge: outside clear, inside the ground's colour.
    const { image } = await around(store, map, 'main', { mapX: r.x, mapY: r.y + r.height / 2 }, 0.25, 32);
    const alpha = (x: number, y: number) => image.data[(y * 32 + x) * 4 + 3];
    expect(alpha(2, 16)).toBe(0);
    expect(alpha(13, 16)).toBe(0);
    expect(alpha(18, 16)).toBe(255);
    expect(alpha(30, 16)).toBe(255);
  });

  it('follows map.json: names, groups left out, placement by a rectangle; its changes make a new version', async () => {
    const map = MAPS.customs;
    const drawing = communityDrawing({ map, placement: { rect: { x: 1000, y: 1000, width: 2124, height: 1070 } } });
    const files = site('customs', {
      'map.svg': drawing.svg,
      'map.json': JSON.stringify({ placement: { rect: { x: 1000, y: 1000, width: 2124, height: 1070 } }, exclude: ['Legend'], layers: { level4: 'Nothing_Here' } }),
    });
    const store = new TileStore({ ...files, maps: [map] });
    const source = await store.source(map);
    const report = store.artReport(source);
    expect(report.placement).toEqual({ from: 'rect', target: { x: 1000, y: 1000, width: 2124, height: 1070 }, rect: { x: 1000, y: 1000, width: 2124, height: 1070 } });
    expect(report.excluded).toEqual(['Legend']);
    // The drawing's Fourth_Floor is no layer now that map.json names level4 otherwise.
    expect(report.unmatched).toEqual(['Fourth_Floor', 'Labels', 'Frame']);
    expect(report.missing).toEqual(['level4']);
    expect(store.missingLayers(source)).toEqual(['level4']);
    const floor = drawing.floors.level2;
    const { image, origin } = await around(store, map, 'level2', floor.map, 1);
    const dot = findColour(image, floor.dot, { x: 32, y: 32 }, 32, 30)!;
    expect(Math.hypot(origin.mapX + dot.x - floor.map.mapX, origin.mapY + dot.y - floor.map.mapY)).toBeLessThan(2);

    // Another map.json, same drawing: another version.
    const plain = new TileStore({ ...site('customs', { 'map.svg': drawing.svg }), maps: [map] });
    expect((await plain.source(map)).version).not.toBe(source.version);
  });

  it('refuses a bad map.json with the file and the field named, and the other maps still build', async () => {
    const small = (m: MapDefinition): MapDefinition => ({ ...m, size: { width: 256, height: 256 }, layers: ['main'] });
    const maps = [small(MAPS.customs), small(MAPS.woods)];
    const files = site('customs', { 'map.svg': communityDrawing({ map: MAPS.customs }).svg, 'map.json': '{"placement": {"bounds": [[1, 2]]}}' });
    const store = new TileStore({ ...files, maps });
    await expect(store.source(maps[0])).rejects.toThrow(MapArtError);
    await expect(store.source(maps[0])).rejects.toThrow(/customs[/\\]map\.json: placement/);
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const result = await prepareAllTiles({ ...files, maps });
    error.mockRestore();
    log.mockRestore();
    expect(result.failed).toEqual([{ map: 'customs', error: expect.stringMatching(/map\.json: placement/) }]);
    expect(result.maps.map((m) => m.map)).toEqual(['woods']);
  });

  it('logs a group of no layer once, by name, and a time per map built', async () => {
    const map: MapDefinition = { ...MAPS.customs, size: { width: 512, height: 372 } };
    const files = site('customs', {
      'map.svg': communityDrawing({ map: MAPS.customs, placement: { fill: true } }).svg,
      'map.json': '{"placement": {"fill": true}}',
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    await prepareAllTiles({ ...files, maps: [map] });
    await prepareAllTiles({ ...files, maps: [map] });
    const warnings = warn.mock.calls.map((c) => String(c[0]));
    const logs = log.mock.calls.map((c) => String(c[0]));
    warn.mockRestore();
    log.mockRestore();
    for (const name of ['Labels', 'Legend', 'Frame']) {
      expect(warnings.filter((w) => w.includes(`group "${name}"`) && w.includes('matches no layer'))).toHaveLength(1);
    }
    expect(logs.filter((l) => /^tiles: customs: built \d+ tiles of 5 layers in \d+\.\d s/.test(l))).toHaveLength(1);
    expect(logs.some((l) => l.includes('main="Ground_Level"') || l.includes('main=Ground_Level'))).toBe(true);
  });
});
