/**
 * The compact marker list and the one-marker route (issue 11) on SQLite and PostgreSQL: the
 * compact list round-trips against the full list, is cached like it (strong ETag, br / gzip,
 * 304, `no-cache`), follows writes; the full marker comes from /markers/one; every role gets
 * the same answers; bad input gets a clear 4xx.
 */
import path from 'node:path';
import zlib from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { COMPACT_BINARY_TYPE, decodeCompactBinary } from '../../src/domain/compact-binary';
import { decodeCompactList } from '../../src/domain/compact-markers';
import type { Language, Marker } from '../../src/domain/marker';
import { markerLabel } from '../../workers/markers';
import { JSON_CACHE_DEFAULTS } from '../http/json-cache';
import { testBackends } from '../testing/databases';
import { useRoleApp } from '../testing/role-app';
import { testMarker } from '../testing/markers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function identityOf(res: LightMyRequestResponse): Buffer {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(res.rawPayload);
  if (encoding === 'gzip') return zlib.gunzipSync(res.rawPayload);
  return res.rawPayload;
}

/** A varied set: translations, quests, levels, categories, fractional positions. */
function seedMarkers(): Marker[] {
  return Array.from({ length: 60 }, (_, i) =>
    testMarker(`c${String(i).padStart(3, '0')}`, {
      category: i % 5 === 0 ? 'Extractions' : i % 5 === 1 ? 'Quests' : 'Loot',
      subCategory: i % 5 === 0 ? 'PMC Extraction' : i % 5 === 1 ? 'Quest' : 'Safe',
      level: (i % 3) - 1 || 1,
      geometry: { x: 100 + i * 13.25, y: 2000 - i * 7.5 },
      name: i % 4 === 0 ? '' : `Name ${i}`,
      name_l10n: i % 2 === 0 ? { ru: `Имя ${i}` } : i % 7 === 0 ? { en: `English ${i}`, ru: `Рус ${i}` } : {},
      desc: `Description ${i}`,
      desc_l10n: { ru: `Описание ${i}` },
      imgs: i % 6 === 0 ? [{ img: '/uploads/a.webp', name: 'A', desc: '' }] : [],
      questUid: i % 5 === 1 ? `quest-${i % 3}` : null,
      itemsUid: i % 8 === 0 ? ['item-1'] : [],
    }),
  );
}

describe.each(testBackends())('compact marker list and one marker on $name', (backend) => {
  const server = useRoleApp(backend, (root) => ({ uploadsDir: path.join(root, 'uploads'), tiles: false, distDir: path.join(root, 'dist'), assetsDir: path.join(root, 'assets') }), {
    seed: async (repos) => {
      await repos.markers.insertMany(seedMarkers());
      await repos.markers.insertMany([testMarker('other-map', { map: 'customs', geometry: { x: 50, y: 50 } })]);
    },
  });

  const get = (url: string, headers: Record<string, string> = {}) => server.app.inject({ method: 'GET', url, headers });

  it.each(['en', 'ru'] as Language[])('round-trips against the full list (%s): every field the map draws and filters, in uid order', async (lang) => {
    const full = JSON.parse((await get('/api/be/markers/list?map=factory')).body) as { markers: Marker[] };
    const res = await get(`/api/be/markers/compact?map=factory&lang=${lang}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    const decoded = decodeCompactList(JSON.parse(res.body));
    expect(decoded.issues).toEqual([]);
    expect(decoded.map).toBe('factory');
    expect(decoded.lang).toBe(lang);
    expect(decoded.markers).toEqual(
      full.markers.map((m) => ({
        uid: m.uid,
        category: m.category,
        subCategory: m.subCategory,
        level: m.level,
        questUid: m.questUid ?? null,
        x: m.geometry.x,
        y: m.geometry.y,
        label: markerLabel(m, lang),
      })),
    );
    // No descriptions, images or items in the compact list.
    expect(res.body).not.toContain('Description');
    expect(res.body).not.toContain('/uploads/');
  });

  it.each(['en', 'ru'] as Language[])('answers the same records in binary with format=binary (%s)', async (lang) => {
    const json = decodeCompactList(JSON.parse((await get(`/api/be/markers/compact?map=factory&lang=${lang}`)).body));
    const res = await get(`/api/be/markers/compact?map=factory&lang=${lang}&format=binary`, { 'accept-encoding': 'br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(COMPACT_BINARY_TYPE);
    expect(res.headers['content-encoding']).toBe('br');
    expect(decodeCompactBinary(identityOf(res))).toEqual(json);
    // format=json is the default.
    expect((await get(`/api/be/markers/compact?map=factory&lang=${lang}&format=json`)).body).toBe((await get(`/api/be/markers/compact?map=factory&lang=${lang}`)).body);
  });

  it('caches the binary list apart from the JSON one: its own ETag, 304 on its own', async () => {
    const json = await get('/api/be/markers/compact?map=factory&lang=en', { 'accept-encoding': 'gzip' });
    const binary = await get('/api/be/markers/compact?map=factory&lang=en&format=binary', { 'accept-encoding': 'gzip' });
    expect(binary.headers.etag).toMatch(/^"[\w-]+-gz"$/);
    expect(binary.headers.etag).not.toBe(json.headers.etag);
    expect(binary.headers['cache-control']).toBe('no-cache');
    const again = await get('/api/be/markers/compact?map=factory&lang=en&format=binary', { 'accept-encoding': 'gzip', 'if-none-match': binary.headers.etag as string });
    expect(again.statusCode).toBe(304);
    const crossed = await get('/api/be/markers/compact?map=factory&lang=en&format=binary', { 'accept-encoding': 'gzip', 'if-none-match': json.headers.etag as string });
    expect(crossed.statusCode).toBe(200);
    const plain = await get('/api/be/markers/compact?map=factory&lang=en&format=binary');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(identityOf(binary))).toBe(true);
  });

  it('keeps every marker of concurrent writes in the binary list once the writes are in', async () => {
    const writes = Array.from({ length: 20 }, (_, i) => server.repos.markers.insert(testMarker(`w${String(i).padStart(2, '0')}`, { name: `Write ${i}` })));
    const reads = Array.from({ length: 5 }, () => get('/api/be/markers/compact?map=factory&lang=en&format=binary'));
    const [written, read] = await Promise.all([Promise.all(writes), Promise.all(reads)]);
    expect(written.every((w) => w.ok)).toBe(true);
    // Reads during the writes are whole lists, old or new, never a mix that fails to decode.
    for (const res of read) expect(decodeCompactBinary(res.rawPayload).issues).toEqual([]);
    await sleep(JSON_CACHE_DEFAULTS.maxStaleMs + 10);
    const after = decodeCompactBinary((await get('/api/be/markers/compact?map=factory&lang=en&format=binary')).rawPayload);
    expect(after.markers.filter((m) => m.uid.startsWith('w')).map((m) => m.label)).toEqual(Array.from({ length: 20 }, (_, i) => `Write ${i}`));
  });

  it('is much smaller than the full list', async () => {
    const full = await get('/api/be/markers/list?map=factory');
    const compact = await get('/api/be/markers/compact?map=factory&lang=en');
    expect(compact.rawPayload.length).toBeLessThan(full.rawPayload.length / 3);
  });

  it('is cached like the list: strong ETag per encoding, 304 on If-None-Match, no-cache, br and gzip', async () => {
    const br = await get('/api/be/markers/compact?map=factory&lang=en', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.headers.etag).toMatch(/^"[\w-]+-br"$/);
    const gz = await get('/api/be/markers/compact?map=factory&lang=en', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(identityOf(gz).equals(identityOf(br))).toBe(true);
    const again = await get('/api/be/markers/compact?map=factory&lang=en', { 'accept-encoding': 'br', 'if-none-match': br.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // Each language has its own body.
    const ru = await get('/api/be/markers/compact?map=factory&lang=ru', { 'accept-encoding': 'br', 'if-none-match': br.headers.etag as string });
    expect(ru.statusCode).toBe(200);
    // No lang: English.
    const plain = await get('/api/be/markers/compact?map=factory');
    expect(plain.body).toBe(identityOf(br).toString());
  });

  it('follows writes: a read after the staleness bound has the change, with a new ETag', async () => {
    const before = await get('/api/be/markers/compact?map=factory&lang=ru');
    await server.repos.markers.insert(testMarker('c999', { name: 'Fresh', name_l10n: { ru: 'Свежий' } }));
    await sleep(JSON_CACHE_DEFAULTS.maxStaleMs + 10);
    const after = await get('/api/be/markers/compact?map=factory&lang=ru', { 'if-none-match': before.headers.etag as string });
    expect(after.statusCode).toBe(200);
    const decoded = decodeCompactList(JSON.parse(after.body));
    expect(decoded.markers.find((m) => m.uid === 'c999')?.label).toBe('Свежий');
    await server.repos.markers.remove('c999');
    await sleep(JSON_CACHE_DEFAULTS.maxStaleMs + 10);
    const gone = decodeCompactList(JSON.parse((await get('/api/be/markers/compact?map=factory&lang=ru')).body));
    expect(gone.markers.some((m) => m.uid === 'c999')).toBe(false);
    const goneBinary = decodeCompactBinary((await get('/api/be/markers/compact?map=factory&lang=ru&format=binary')).rawPayload);
    expect(goneBinary.markers).toEqual(gone.markers);
  });

  it('answers HEAD with the ETag and no body: 304 while the list is the one the page read, 200 once it changed (a page checks what it missed)', async () => {
    const url = '/api/be/markers/compact?map=factory&lang=en&format=binary';
    const read = await get(url, { 'accept-encoding': 'gzip', accept: COMPACT_BINARY_TYPE });
    const head = (etag: string) => server.app.inject({ method: 'HEAD', url, headers: { 'accept-encoding': 'gzip', accept: COMPACT_BINARY_TYPE, 'if-none-match': etag } });
    const same = await head(read.headers.etag as string);
    expect(same.statusCode).toBe(304);
    expect(same.rawPayload.length).toBe(0);
    await server.repos.markers.insert(testMarker('c998', { name: 'Added meanwhile' }));
    await sleep(JSON_CACHE_DEFAULTS.maxStaleMs + 10);
    const changed = await head(read.headers.etag as string);
    expect(changed.statusCode).toBe(200);
    expect(changed.rawPayload.length).toBe(0);
    expect(changed.headers.etag).not.toBe(read.headers.etag);
    await server.repos.markers.remove('c998');
    // The next tests compare answers across roles: let the cache publish the removal first.
    await sleep(JSON_CACHE_DEFAULTS.maxStaleMs + 10);
  });

  it('answers one full marker, as the full list has it', async () => {
    const full = JSON.parse((await get('/api/be/markers/list?map=factory')).body) as { markers: Marker[] };
    for (const uid of ['c000', 'c001', 'c006']) {
      const res = await get(`/api/be/markers/one?uid=${uid}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(JSON.parse(res.body)).toEqual({ marker: full.markers.find((m) => m.uid === uid) });
    }
  });

  it('gives anonymous callers, visitors, pro users and admins the same answers', async () => {
    const outcomes: Record<string, unknown> = {};
    for (const [role, cookie] of Object.entries(server.cookies)) {
      const headers: Record<string, string> = cookie ? { cookie } : {};
      const compact = await get('/api/be/markers/compact?map=factory&lang=en', headers);
      const binary = await get('/api/be/markers/compact?map=factory&lang=en&format=binary', headers);
      const one = await get('/api/be/markers/one?uid=c002', headers);
      const missing = await get('/api/be/markers/one?uid=nope', headers);
      outcomes[role] = {
        compact: [compact.statusCode, compact.headers.etag],
        binary: [binary.statusCode, binary.headers.etag],
        one: [one.statusCode, one.body],
        missing: missing.statusCode,
      };
    }
    const expected = outcomes.anonymous as { compact: [number, string]; binary: [number, string]; one: [number, string]; missing: number };
    expect(expected.compact[0]).toBe(200);
    expect(expected.binary[0]).toBe(200);
    expect(expected.one[0]).toBe(200);
    expect(expected.missing).toBe(404);
    expect(outcomes).toEqual({ anonymous: expected, visitor: expected, pro: expected, admin: expected });
  });

  it.each([
    ['/api/be/markers/compact', 400, /"map" is required/],
    ['/api/be/markers/compact?map=', 400, /"map" must not be empty/],
    ['/api/be/markers/compact?map=factory&map=lab', 400, /"map" must be given once/],
    [`/api/be/markers/compact?map=${'x'.repeat(65)}`, 400, /"map" is too long/],
    ['/api/be/markers/compact?map=atlantis', 404, /unknown map "atlantis"/],
    ['/api/be/markers/compact?map=factory&lang=de', 400, /"lang" must be en or ru/],
    ['/api/be/markers/compact?map=factory&lang=en&lang=ru', 400, /"lang" must be given once/],
    ['/api/be/markers/compact?map=factory&format=xml', 400, /"format" must be json or binary/],
    ['/api/be/markers/compact?map=factory&format=binary&format=json', 400, /"format" must be given once/],
    ['/api/be/markers/compact?map=atlantis&format=binary', 404, /unknown map "atlantis"/],
    ['/api/be/markers/one', 400, /"uid" is required/],
    ['/api/be/markers/one?uid=', 400, /"uid" must not be empty/],
    ['/api/be/markers/one?uid=a&uid=b', 400, /"uid" must be given once/],
    [`/api/be/markers/one?uid=${'u'.repeat(500)}`, 400, /"uid" is at most/],
    ['/api/be/markers/one?uid=%00%27%20or%201%3D1', 400, /"uid" must not contain a NUL/],
    ["/api/be/markers/one?uid=%27%20or%201%3D1%20--", 404, /no marker/],
    ['/api/be/markers/one?uid=unknown', 404, /no marker "unknown"/],
  ])('GET %s → %i with a clear message', async (url, status, message) => {
    const res = await get(url);
    expect(res.statusCode).toBe(status);
    const body = JSON.parse(res.body) as { error: string; message: string };
    expect(typeof body.error).toBe('string');
    expect(body.message).toMatch(message);
  });
});
