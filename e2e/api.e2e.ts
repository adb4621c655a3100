/**
 * The HTTP surface through the real server on its freshly seeded SQLite database: health,
 * the marker list (content, compression, ETag, 404 and 400 paths), quest and item caches,
 * tiles, icons and the SPA fallback.
 */
import { request } from 'node:http';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { inject } from 'vitest';
import { MAP_IDS, MAPS } from '../src/domain/maps';
import { SUBCATEGORIES, slug } from '../src/domain/categories';
import { validateMarkers } from '../src/domain/marker';
import { TILE_SIZE, tileGrid, type TileManifest } from '../src/domain/tiles';

const base = () => inject('baseUrl');

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET without automatic decompression, to see exactly what the server sends. */
function rawGet(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(`${base()}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function json(res: RawResponse): unknown {
  const encoding = res.headers['content-encoding'];
  const body = encoding === 'gzip' ? gunzipSync(res.body) : encoding === 'br' ? brotliDecompressSync(res.body) : res.body;
  return JSON.parse(body.toString('utf8'));
}

function header(res: RawResponse, name: string): string {
  const value = res.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

function expectJsonError(res: RawResponse, status: number) {
  expect(res.status).toBe(status);
  expect(header(res, 'content-type')).toMatch(/application\/json/);
  const body = json(res) as { error?: unknown; message?: unknown };
  expect(typeof body.error).toBe('string');
  expect(typeof body.message).toBe('string');
  expect((body.message as string).length).toBeGreaterThan(0);
}

describe('health', () => {
  test('answers ok with the tile build progress', async () => {
    const res = await rawGet('/api/be/health');
    expect(res.status).toBe(200);
    const body = json(res) as { status: string; tiles: { ready: boolean; done: number; total: number } };
    expect(body.status).toBe('ok');
    expect(typeof body.tiles.ready).toBe('boolean');
    expect(body.tiles.done).toBeLessThanOrEqual(body.tiles.total);
    expect(body.tiles.total).toBeGreaterThan(0);
  });
});

describe('GET /api/be/markers/list', () => {
  test('customs: every marker valid, on the map, on its levels, covering every subcategory and level', async () => {
    const res = await rawGet('/api/be/markers/list?map=customs');
    expect(res.status).toBe(200);
    const body = json(res) as { markers: unknown[] };
    expect(Array.isArray(body.markers)).toBe(true);
    expect(body.markers.length).toBeGreaterThanOrEqual(300);
    const { markers, issues } = validateMarkers(body.markers);
    expect(issues).toEqual([]);
    const map = MAPS.customs;
    const levels = new Set(map.levels.map((l) => l.num));
    for (const m of markers) {
      expect(m.map).toBe('customs');
      expect(levels.has(m.level), `level ${m.level} of ${m.uid}`).toBe(true);
      expect(m.geometry.x).toBeGreaterThanOrEqual(0);
      expect(m.geometry.x).toBeLessThanOrEqual(map.size.width);
      expect(m.geometry.y).toBeGreaterThanOrEqual(0);
      expect(m.geometry.y).toBeLessThanOrEqual(map.size.height);
    }
    expect(new Set(markers.map((m) => m.uid)).size).toBe(markers.length);
    expect(new Set(markers.map((m) => m.subCategory))).toEqual(new Set(SUBCATEGORIES.map((s) => s.id)));
    expect(new Set(markers.map((m) => m.level))).toEqual(levels);
    expect(markers.every((m) => m.name_l10n.en && m.name_l10n.ru)).toBe(true);
    expect(markers.some((m) => m.desc_l10n.en && m.desc_l10n.ru)).toBe(true);
    expect(markers.some((m) => m.imgs.length > 0)).toBe(true);
    expect(markers.some((m) => m.questUid)).toBe(true);
    expect(markers.some((m) => m.itemsUid.length > 0)).toBe(true);
  });

  test('every map has at least 300 markers of its own', async () => {
    for (const id of MAP_IDS) {
      const res = await rawGet(`/api/be/markers/list?map=${id}`);
      expect(res.status, id).toBe(200);
      const { markers } = json(res) as { markers: { map: string }[] };
      expect(markers.length, id).toBeGreaterThanOrEqual(300);
      expect(markers.every((m) => m.map === id), id).toBe(true);
    }
  });

  test('an extra query string is ignored', async () => {
    const plain = json(await rawGet('/api/be/markers/list?map=factory')) as { markers: unknown[] };
    const extra = await rawGet('/api/be/markers/list?map=factory&lang=ru&_=12345&foo=bar');
    expect(extra.status).toBe(200);
    expect((json(extra) as { markers: unknown[] }).markers.length).toBe(plain.markers.length);
  });

  test('is compressed (gzip and br) and has an ETag that answers 304', async () => {
    const identity = await rawGet('/api/be/markers/list?map=woods');
    const gzip = await rawGet('/api/be/markers/list?map=woods', { 'accept-encoding': 'gzip' });
    expect(header(gzip, 'content-encoding')).toBe('gzip');
    expect(gzip.body.length).toBeLessThan(identity.body.length / 2);
    expect(json(gzip)).toEqual(json(identity));
    const br = await rawGet('/api/be/markers/list?map=woods', { 'accept-encoding': 'br' });
    expect(header(br, 'content-encoding')).toBe('br');
    expect(json(br)).toEqual(json(identity));

    const etag = header(identity, 'etag');
    expect(etag).not.toBe('');
    const again = await rawGet('/api/be/markers/list?map=woods', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  test('unknown map: 404 with a JSON error', async () => {
    expectJsonError(await rawGet('/api/be/markers/list?map=atlantis'), 404);
  });

  test('missing or invalid map parameter: 400 with a JSON error', async () => {
    expectJsonError(await rawGet('/api/be/markers/list'), 400);
    expectJsonError(await rawGet('/api/be/markers/list?map='), 400);
    expectJsonError(await rawGet(`/api/be/markers/list?map=${'x'.repeat(5000)}`), 400);
  });

  test('hostile input gets a 4xx, never a 5xx, and the server keeps answering', async () => {
    for (const path of [
      '/api/be/markers/list?map=%00',
      '/api/be/markers/list?map=..%2F..%2Fetc%2Fpasswd',
      "/api/be/markers/list?map=customs'%20OR%201=1--",
      '/api/be/markers/list?map=customs&map=factory',
      '/api/be/markers/list?map[]=customs',
    ]) {
      const res = await rawGet(path);
      expect(res.status, path).toBeGreaterThanOrEqual(200);
      expect(res.status, path).toBeLessThan(500);
      if (res.status >= 400) expectJsonError(res, res.status);
    }
    const post = await rawGet('/api/be/markers/list?map=customs', { 'content-type': 'application/json' }, 'POST');
    expect(post.status).toBeGreaterThanOrEqual(400);
    expect(post.status).toBeLessThan(500);
    expect((await rawGet('/api/be/health')).status).toBe(200);
  });
});

describe('quest and item caches', () => {
  test('GET /api/be/quests lists quests with every field, with an ETag', async () => {
    const res = await rawGet('/api/be/quests');
    expect(res.status).toBe(200);
    const { quests } = json(res) as { quests: Record<string, unknown>[] };
    expect(quests.length).toBeGreaterThan(0);
    for (const q of quests) {
      expect(typeof q.uid).toBe('string');
      expect(typeof q.name).toBe('string');
      expect(typeof q.ruName).toBe('string');
      expect(typeof q.trader).toBe('string');
      expect(typeof q.requiredForKappa).toBe('boolean');
      expect(typeof q.requiredForLightkeeper).toBe('boolean');
      expect(typeof q.wikiUrl).toBe('string');
    }
    const etag = header(res, 'etag');
    expect(etag).not.toBe('');
    expect((await rawGet('/api/be/quests', { 'if-none-match': etag })).status).toBe(304);
  });

  test('GET /api/be/items lists items, with an ETag', async () => {
    const res = await rawGet('/api/be/items');
    expect(res.status).toBe(200);
    const { items } = json(res) as { items: Record<string, unknown>[] };
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      expect(typeof item.uid).toBe('string');
      expect(typeof item.name).toBe('string');
      expect(typeof item.ruName).toBe('string');
    }
    expect(header(res, 'etag')).not.toBe('');
  });

  test('markers link only to quests and items that exist', async () => {
    const quests = new Set((json(await rawGet('/api/be/quests')) as { quests: { uid: string }[] }).quests.map((q) => q.uid));
    const items = new Set((json(await rawGet('/api/be/items')) as { items: { uid: string }[] }).items.map((i) => i.uid));
    const { markers } = json(await rawGet('/api/be/markers/list?map=customs')) as { markers: { questUid?: string | null; itemsUid: string[] }[] };
    for (const m of markers) {
      if (m.questUid) expect(quests.has(m.questUid), m.questUid).toBe(true);
      for (const uid of m.itemsUid) expect(items.has(uid), uid).toBe(true);
    }
  });
});

describe('tiles', () => {
  async function manifest(mapId: string): Promise<TileManifest> {
    const res = await rawGet(`/tiles/${mapId}/manifest.json`);
    expect(res.status).toBe(200);
    expect(header(res, 'cache-control')).toMatch(/no-cache/);
    return json(res) as TileManifest;
  }

  test('every map has a manifest that matches its definition', async () => {
    for (const id of MAP_IDS) {
      const m = await manifest(id);
      expect(m.map).toBe(id);
      expect(m.width).toBe(MAPS[id].size.width);
      expect(m.height).toBe(MAPS[id].size.height);
      expect([...m.layers].sort()).toEqual([...MAPS[id].layers].sort());
      expect(m.tileSize).toBe(TILE_SIZE);
      expect(m.version).toMatch(/^[A-Za-z0-9_-]+$/);
    }
  });

  test('a tile is an image with long-lived cache headers; deep tiles render on demand', async () => {
    const m = await manifest('shoreline');
    const layer = m.layers[0];
    const contentType = m.format === 'webp' ? /image\/webp/ : /image\/png/;
    for (const z of [0, m.maxZ]) {
      const { cols, rows } = tileGrid(m.width, m.height, z);
      const x = Math.floor(cols / 2);
      const y = Math.floor(rows / 2);
      const res = await rawGet(`/tiles/shoreline/${m.version}/${layer}/${z}/${x}/${y}.${m.format}`);
      expect(res.status, `z ${z}`).toBe(200);
      expect(header(res, 'content-type')).toMatch(contentType);
      expect(header(res, 'cache-control')).toMatch(/max-age=31536000/);
      expect(header(res, 'cache-control')).toMatch(/immutable/);
      expect(res.body.length).toBeGreaterThan(50);
    }
  });

  test('out-of-range tiles, wrong versions, unknown maps and layers: 404 JSON', async () => {
    const m = await manifest('customs');
    const layer = m.layers[0];
    const { cols, rows } = tileGrid(m.width, m.height, 0);
    const f = m.format;
    for (const path of [
      `/tiles/customs/${m.version}/${layer}/0/${cols}/0.${f}`,
      `/tiles/customs/${m.version}/${layer}/0/0/${rows}.${f}`,
      `/tiles/customs/${m.version}/${layer}/${m.maxZ + 1}/0/0.${f}`,
      `/tiles/customs/not-the-version/${layer}/0/0/0.${f}`,
      `/tiles/customs/${m.version}/no-such-layer/0/0/0.${f}`,
      `/tiles/atlantis/${m.version}/${layer}/0/0/0.${f}`,
    ]) {
      const res = await rawGet(path);
      expect(res.status, path).toBe(404);
      expect(header(res, 'content-type'), path).toMatch(/application\/json/);
    }
    expect((await rawGet('/tiles/atlantis/manifest.json')).status).toBe(404);
    // Malformed coordinates are a client error too (400 or 404), with a JSON body.
    for (const path of [`/tiles/customs/${m.version}/${layer}/-1/0/0.${f}`, `/tiles/customs/${m.version}/${layer}/0/x/0.${f}`]) {
      const res = await rawGet(path);
      expect([400, 404], path).toContain(res.status);
      expect(header(res, 'content-type'), path).toMatch(/application\/json/);
    }
  });
});

describe('icons and the site', () => {
  test('every subcategory has a 64×64 SVG icon', async () => {
    for (const sub of SUBCATEGORIES) {
      const res = await rawGet(`/icons/${slug(sub.id)}.svg`);
      expect(res.status, sub.id).toBe(200);
      expect(header(res, 'content-type'), sub.id).toMatch(/image\/svg\+xml/);
      const text = res.body.toString('utf8');
      expect(text, sub.id).toMatch(/<svg[\s>]/);
      expect(text, sub.id).toMatch(/viewBox=["']0 0 64 64["']/);
    }
    expect((await rawGet('/icons/no-such-icon.svg')).status).toBe(404);
  });

  test('page routes get index.html; API and file paths do not', async () => {
    for (const path of ['/', '/map/customs', '/map/customs?quest=a,b&obj=x', '/map/atlantis', '/progression/quests']) {
      const res = await rawGet(path);
      expect(res.status, path).toBe(200);
      expect(header(res, 'content-type'), path).toMatch(/text\/html/);
      expect(res.body.toString('utf8'), path).toMatch(/<div id="root"/);
    }
    expectJsonError(await rawGet('/api/be/no-such-endpoint'), 404);
    const missingFile = await rawGet('/assets/no-such-file.js');
    expect(missingFile.status).toBe(404);
    expect(header(missingFile, 'content-type')).not.toMatch(/text\/html/);
  });
});
