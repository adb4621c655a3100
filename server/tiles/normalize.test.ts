import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { MAPS, type MapDefinition } from '../../src/domain/maps';
import { prepareAllTiles } from './index';
import { culledBody, cullIndex, disposeNormalizer, elementBoxes, normalizeLayer, normalizeText, parseTransform, pathBox } from './normalize';
import { tilesPlugin } from './plugin';
import { renderPool } from './render-pool';
import { parseSvg, type LayerSvg } from './svg-doc';

/**
 * resvg's writer has no known panic of its own, so render-child.mjs also rasterises a
 * document holding this marker while normalising it (tests only): with the far-off group
 * with opacity below, resvg really panics (geom.rs) in the normaliser's process. Set before
 * any child starts (children read it once).
 */
const PANIC_MARKER = 'data-test="normalize-panic"';
process.env.TILES_TEST_NORMALIZE_PANIC_MARKER = PANIC_MARKER;
const PANIC_GROUP = `<g ${PANIC_MARKER} opacity="0.4"><rect x="40000" y="40000" width="50" height="50"/></g>`;

afterAll(() => disposeNormalizer());

describe('parseTransform', () => {
  it('reads matrix, translate, scale and rotate lists', () => {
    expect(parseTransform(undefined)).toEqual([1, 0, 0, 1, 0, 0]);
    expect(parseTransform('matrix(1 0 0 1 64 0)')).toEqual([1, 0, 0, 1, 64, 0]);
    expect(parseTransform('translate(10, 20) scale(2)')).toEqual([2, 0, 0, 2, 10, 20]);
    const r = parseTransform('rotate(90 10 10)')!;
    // (20, 10) turns about (10, 10) to (10, 20).
    expect(r[0] * 20 + r[2] * 10 + r[4]).toBeCloseTo(10);
    expect(r[1] * 20 + r[3] * 10 + r[5]).toBeCloseTo(20);
  });

  it('gives up on what it does not know', () => {
    expect(parseTransform('perspective(3)')).toBeUndefined();
    expect(parseTransform('matrix(1 2 3)')).toBeUndefined();
  });
});

describe('pathBox', () => {
  it('bounds absolute paths by the curves themselves, not their control points', () => {
    const arch = pathBox('M 0 0 C 0 -40 40 -40 40 0')!;
    expect(arch.minY).toBeCloseTo(-30);
    expect([arch.minX, arch.maxX, arch.maxY]).toEqual([0, 40, 0]);
    const quad = pathBox('M 0 0 Q 20 40 40 0 Z')!;
    expect(quad.maxY).toBeCloseTo(20);
    expect(pathBox('M 0 0 L 10 5 C 20 -5 30 5 40 0 Z')).toMatchObject({ minX: 0, maxX: 40, maxY: 5 });
    expect(pathBox('M10 10H50V30')).toEqual({ minX: 10, minY: 10, maxX: 50, maxY: 30 });
  });

  it('does not guess relative paths', () => {
    expect(pathBox('m 0 0 l 10 10')).toBeUndefined();
    expect(pathBox('')).toBeUndefined();
  });
});

describe('elementBoxes and culledBody', () => {
  const text = `<svg width="100" height="100" viewBox="0 0 100 100"><defs><clipPath id="c"><path d="M0 0L1 1"/></clipPath></defs>` +
    `<g id="a" transform="matrix(2 0 0 2 0 0)"><path id="near" d="M 0 0 L 10 10" fill="#000"/><path id="far" d="M 400 400 L 410 410" fill="#000"/></g>` +
    `<path id="stroked" d="M 0 500 L 10 500" stroke="#000" stroke-width="4"/><image id="img" x="50" y="50" width="10" height="10"/><g id="empty"/><foo id="unknown"/></svg>`;
  const root = parseSvg(text);
  const boxes = elementBoxes(root);
  const byId = (id: string) => [...boxes].find(([el]) => el.attrs.get('id') === id)![1];

  it('boxes elements in root units through transforms, with stroke margins', () => {
    expect(byId('near')).toEqual({ minX: -1, minY: -1, maxX: 21, maxY: 21 });
    expect(byId('a')).toEqual({ minX: -1, minY: -1, maxX: 821, maxY: 821 });
    const stroked = byId('stroked')!;
    expect(stroked.minY).toBeLessThanOrEqual(498);
    expect(stroked.maxY).toBeGreaterThanOrEqual(502);
    expect(byId('img')).toEqual({ minX: 50, minY: 50, maxX: 60, maxY: 60 });
    expect(byId('empty')).toBeNull();
    expect(byId('unknown')).toBeUndefined();
  });

  it('leaves out what lies wholly outside the region, keeps definitions and unknowns', () => {
    const body = culledBody(cullIndex(text), { x: 0, y: 0, width: 100, height: 100 });
    expect(body).toContain('id="near"');
    expect(body).not.toContain('id="far"');
    expect(body).not.toContain('id="stroked"');
    expect(body).toContain('id="img"');
    expect(body).toContain('<clipPath id="c">');
    expect(body).toContain('id="unknown"');
    expect(() => parseSvg(`<svg>${body}`)).not.toThrow();
  });
});

describe('anchors in layer groups', () => {
  const doc = (group: string) => `<svg><defs><clipPath id="u"><path d="M0 0L9 9"/></clipPath><clipPath id="b" clipPathUnits="objectBoundingBox"><path d="M0 0L1 1"/></clipPath><filter id="f"/></defs>` +
    `<g id="grp" ${group} transform="matrix(2 0 0 2 10 0)"><path d="M 0 0 L 100 100" fill="#000"/></g></svg>`;
  const body = (group: string) => culledBody(cullIndex(doc(group)), { x: 0, y: 0, width: 20, height: 20 });
  const anchor = /<path d="M([-\d.e]+) ([-\d.e]+)h[^"]*Z" fill="#000" fill-opacity="0"\/>/;

  it('puts a transparent anchor at the canvas centre, in the group\'s own units, when the group reaches off the canvas', () => {
    const hit = body('opacity="0.5"').match(anchor);
    expect(hit).not.toBeNull();
    // Canvas centre (10, 10) in root units is ((10 - 10) / 2, 10 / 2) inside the group.
    expect(Number(hit![1])).toBeCloseTo(0);
    expect(Number(hit![2])).toBeCloseTo(5);
    expect(body('clip-path="url(#u)"')).toMatch(anchor);
  });

  it('adds none where it would change the drawing, or where the group is no layer', () => {
    expect(body('')).not.toMatch(anchor);
    expect(body('clip-path="url(#b)"')).not.toMatch(anchor);
    expect(body('filter="url(#f)"')).not.toMatch(anchor);
    expect(culledBody(cullIndex(doc('opacity="0.5"')), { x: 0, y: 0, width: 500, height: 500 })).not.toMatch(anchor);
  });
});

describe('normalizeText', () => {
  it("returns resvg's plain SVG (shapes and text as paths) from a child process", async () => {
    const out = await normalizeText('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="5" height="5"/><text x="1" y="9" font-size="8">A</text></svg>', true);
    expect(out).toContain('<path');
    expect(out).not.toContain('<rect');
    expect(out).not.toContain('<text');
  });

  it('rejects a document resvg cannot read', async () => {
    await expect(normalizeText('<svg><g></svg', false)).rejects.toThrow(/resvg could not read/);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a resvg crash while normalising', () => {
  const layer = (body: string): LayerSvg => ({
    found: true,
    head: '',
    rootAttrs: new Map([['xmlns', 'http://www.w3.org/2000/svg']]),
    rootName: 'svg',
    body: `${body}</svg>`,
    viewBox: { x: 0, y: 0, width: 512, height: 512 },
    hasText: false,
  });

  it('rejects only that layer, naming it; the next normalisation works in a fresh child', async () => {
    const crashesBefore = renderPool().crashes;
    const crashed = normalizeLayer(layer(PANIC_GROUP), { map: 'dev', layer: 'main' });
    const next = normalizeLayer(layer('<rect width="512" height="512" fill="#f00"/>'), { map: 'dev', layer: 'level2' });
    await expect(crashed).rejects.toThrow(/^resvg crashed while preparing layer "main" of map "dev" \(render process ended with (signal SIGABRT|exit code \d+): .*Option::unwrap.*geom\.rs/);
    const good = await next;
    expect(good.body).toContain('<path');
    expect(good.cull).toBeTypeOf('function');
    expect(renderPool().crashes).toBe(crashesBefore + 1);
    // Without the marker, the same group normalises (the crash was resvg's, not the document's).
    expect((await normalizeLayer(layer(PANIC_GROUP.replace(PANIC_MARKER, '')))).body).toContain('opacity="0.4"');
  });

  it('prepareAllTiles reports that map failed and builds the others; its tiles answer JSON 500; close leaves no child', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'raidmap-normalize-crash-'));
    try {
      const assetsDir = path.join(root, 'assets');
      const tilesDir = path.join(root, 'tiles');
      mkdirSync(path.join(assetsDir, 'maps', 'dev'), { recursive: true });
      mkdirSync(path.join(assetsDir, 'maps', 'factory'), { recursive: true });
      writeFileSync(
        path.join(assetsDir, 'maps', 'dev', 'map.svg'),
        `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512"><g id="main">${PANIC_GROUP}</g><g id="level2"><rect width="10" height="10"/></g></svg>`,
      );
      copyFileSync(path.resolve(__dirname, '../../tests/fixtures/svg/inkscape-layers.svg'), path.join(assetsDir, 'maps', 'factory', 'map.svg'));
      const small = (base: MapDefinition): MapDefinition => ({ ...base, size: { width: 512, height: 512 }, layers: ['main', 'level2'] });
      const maps = [small(MAPS.dev), small(MAPS.factory)];

      const error = vi.spyOn(console, 'error').mockImplementation(() => {});
      const result = await prepareAllTiles({ assetsDir, tilesDir, maps });
      error.mockRestore();
      expect(result.failed).toEqual([{ map: 'dev', error: expect.stringMatching(/^resvg crashed while preparing layer "main" of map "dev" \(/) }]);
      expect(result.maps.map((m) => [m.map, m.built])).toEqual([['factory', true]]);

      const app = Fastify();
      // The same store as prepareAllTiles (same folders), with the small map definitions.
      await app.register(tilesPlugin, { assetsDir, tilesDir });
      try {
        const manifest = (await app.inject({ method: 'GET', url: '/tiles/dev/manifest.json' })).json();
        const res = await app.inject({ method: 'GET', url: `/tiles/dev/${manifest.version}/main/0/0/0.webp` });
        expect(res.statusCode).toBe(500);
        // resvg's words (its source file, the signal) are for the log: a 500 never shows internals.
        expect(res.json()).toEqual({ error: 'Internal Server Error', message: `tile dev/main/0/0/0 could not be rendered (the server's log says why)` });
        const ok = await app.inject({ method: 'GET', url: `/tiles/dev/${manifest.version}/level2/0/0/0.webp` });
        expect(ok.statusCode).toBe(200);
      } finally {
        const pids = renderPool().pids();
        expect(pids.length).toBeGreaterThan(0);
        await app.close();
        expect(renderPool().pids()).toEqual([]);
        for (const pid of pids) expect(alive(pid)).toBe(false);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('disposeNormalizer leaves no child and rejects work in flight; the next normalisation starts one', async () => {
    const doc = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="5" height="5"/></svg>';
    await normalizeText(doc, false);
    const pids = renderPool().pids();
    expect(pids.length).toBeGreaterThan(0);
    const pending = normalizeText(doc, false).catch((err: Error) => err.message);
    await disposeNormalizer();
    expect(await pending).toBe('the render pool was closed');
    expect(renderPool().stats()).toEqual({ children: 0, busy: 0, queued: 0 });
    for (const pid of pids) expect(alive(pid)).toBe(false);
    expect(await normalizeText(doc, false)).toContain('<path');
    await disposeNormalizer();
    expect(renderPool().pids()).toEqual([]);
  });
});
